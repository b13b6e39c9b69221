// Devices on an rp2040js I2C controller.  A device is {address, start(read), write(b),
// read(), stop()}; an address nobody answers is NACKed, as on a real bus.  Bytes move
// at once (the bus clock is not modelled).

// IC_RAW_INTR_STAT.TX_EMPTY.  rp2040js 1.4.1 raises it only as it takes a command from
// the TX FIFO, not when an abort flushes the FIFO; the SDK waits for it after every
// byte, so a NACKed address cost a 50 ms timeout and left the next transfer failing.
const TX_EMPTY = 1 << 4;

export function attachI2c(i2c, devices, stats = { transactions: 0, nacks: 0 }) {
  let dev = null;
  const nack = (complete) => {
    stats.nacks++;
    complete(false);
    if (i2c.txFIFO.empty) i2c.setInterrupts(TX_EMPTY);
  };
  i2c.onStart = () => i2c.completeStart();
  i2c.onConnect = (addr, mode) => {
    stats.transactions++;
    dev = devices.find((d) => d.address === addr) ?? null;
    if (!dev) { nack((ack) => i2c.completeConnect(ack)); return; }
    dev.start(mode === 1);   // I2CMode.Read
    i2c.completeConnect(true);
  };
  i2c.onWriteByte = (b) => {
    if (dev.write(b)) i2c.completeWrite(true);
    else nack((ack) => i2c.completeWrite(ack));
  };
  i2c.onReadByte = () => i2c.completeRead(dev.read());
  i2c.onStop = () => { dev?.stop(); dev = null; i2c.completeStop(); };
  return stats;
}
