"""The emulated table: the firmware on a pty, every device played by the host."""
