# Felt's Pico for MicroPython's rp2 port (`make pico`: BOARD_DIR): the Raspberry Pi Pico
# (boards/RPI_PICO: its pins, its name, its flash) under the SDK board header felt_pico.h,
# which runs the chip at the fastest clock the SDK supports for the RP2040, and the
# core at the voltage that clock needs (core_voltage.c).
include(${MICROPY_PORT_DIR}/boards/RPI_PICO/mpconfigboard.cmake)
set(PICO_BOARD "felt_pico")
list(APPEND PICO_BOARD_HEADER_DIRS ${MICROPY_BOARD_DIR})
set(MICROPY_BOARD_PINS ${MICROPY_PORT_DIR}/boards/RPI_PICO/pins.csv)
set(MICROPY_SOURCE_BOARD ${MICROPY_BOARD_DIR}/core_voltage.c)
