// The SDK's board header for Felt's Pico: the Raspberry Pi Pico (boards/pico.h) with
// clk_sys at the RP2040's fastest officially supported clock, 200 MHz, with the SDK's
// settings for it: the PLL at 1200 MHz / 6, the core's regulator at 1.15 V before the
// clock starts (SYS_CLK_VREG_VOLTAGE_MIN; core_voltage.c sets it), and MicroPython's
// flash divider from it (rp2_flash.c: the flash at clk_sys / PICO_FLASH_SPI_CLKDIV at
// most, 100 MHz, within the 133 MHz of the Pico's W25Q16JV).
#ifndef _BOARDS_FELT_PICO_H
#define _BOARDS_FELT_PICO_H

#define PICO_USE_FASTEST_SUPPORTED_CLOCK 1
#include "boards/pico.h"

#endif
