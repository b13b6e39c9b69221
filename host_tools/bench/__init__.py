"""The benches: felt-bench (cli: the firmware's figures, on the PC's runtimes and with
table and pico, in the unix port and on the emulated Pico) and felt-floor bench (floor:
the floor under many tables)."""
