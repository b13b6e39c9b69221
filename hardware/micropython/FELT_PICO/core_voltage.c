// The core's supply raised to what 200 MHz needs (felt_pico.h), before the clocks start.
//
// The SDK's runtime_init_clocks() raises VREG to SYS_CLK_VREG_VOLTAGE_MIN (1.15 V for
// the RP2040 at 200 MHz) before it switches clk_sys to the PLL; MicroPython v1.27 replaces
// that function with its own copy (ports/rp2/clocks_extra.c), which does not.  This runs
// as a runtime init just before the clocks' (PICO_RUNTIME_INIT_CLOCKS, "00500").
#include "pico/runtime_init.h"
#include "hardware/clocks.h"
#ifndef NO_QSTR    // MicroPython's qstr scan lacks hardware_vreg's path; no qstr here
#include "hardware/vreg.h"
#endif

static void felt_core_voltage_for_the_clock(void) {
    if (vreg_get_voltage() < SYS_CLK_VREG_VOLTAGE_MIN) {
        vreg_set_voltage(SYS_CLK_VREG_VOLTAGE_MIN);
        // Settling, timed in cycles as the SDK does: clk_sys is still the ring
        // oscillator, below the 12 MHz counted here.
        busy_wait_at_least_cycles((uint32_t)((SYS_CLK_VREG_VOLTAGE_AUTO_ADJUST_DELAY_US *
                                              (uint64_t)XOSC_HZ) / 1000000));
    }
}

PICO_RUNTIME_INIT_FUNC_HW(felt_core_voltage_for_the_clock, "00499");
