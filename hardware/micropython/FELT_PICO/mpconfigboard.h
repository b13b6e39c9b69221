// The Raspberry Pi Pico's MicroPython configuration, unchanged (mpconfigboard.cmake).
#include "boards/RPI_PICO/mpconfigboard.h"
