"""A board whose program check failed at boot (felt.image): the table never starts.

The centre LEDs show the tilt and the seats stay dark; the link says which file and
why, in a `tilt` frame at boot and in the answer to `hello`; a question is answered
with the `tilt` frame (but `verify`, felt.verify, which a lab asks of a board that
fails as of one that passes, answered with the copy the boot imported once the check
found it intact: felt.start), and every other message is refused with the same words.
Nothing of the table's code is loaded: it may be the file that failed.  A technician clears the tilt by installing a signed image
(docs/tilts.md, docs/board.md "Technicians").
"""

try:
    import asyncio
except ImportError:
    import uasyncio as asyncio

from felt.hal.clock import sleep_ms
from felt.protocol import QUERIES
from felt.table import scenes


async def run(hal, board, tilt, image, verify):
    """Stay tilted: `tilt` is {"code", "file", "why"}; `image` the folder of the image
    checked; `verify` felt.verify as checked, or why a `verify` is refused (a string).
    Returns only if the link dies."""
    scenes.render(hal.pixels, board["leds"], (), -1, scenes.LOCKED)
    hal.link.send("tilt", tilt)
    refusal = "the table is tilted: %s: %s: %s" % (tilt["code"], tilt["file"], tilt["why"])

    def answer(kind, payload):
        if kind == "hello":
            hal.link.send("hello", {"fw": None, "board": board["name"],
                                    "seats": len(board["leds"]["seats"]), "tilt": tilt})
        elif kind == "verify" and isinstance(payload.get("seed"), str):
            if isinstance(verify, str):     # nothing is imported after the tilt
                hal.link.send("verify", {"seed": payload["seed"], "mac": None, "why": verify})
            else:
                hal.link.send("verify", verify.answer(image, payload["seed"]))
        elif kind in QUERIES:
            hal.link.send("tilt", tilt)     # a question gets the only answer there is
        return refusal

    async def feed():
        while True:
            hal.feed()
            await sleep_ms(500)

    asyncio.create_task(hal.link.pump())
    asyncio.create_task(feed())
    await hal.link.serve(answer)
