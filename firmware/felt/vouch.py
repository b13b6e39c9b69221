"""Answers the reader can trust (issue 38, item 4): the board's own key (felt.boardkey)
MACs what it answers a technician (`recall`, `eventlog`) and a lab (`verify`), bound to
the board and to the challenge or seed the request answered, so a host in the middle
can neither forge nor replay what the reader sees (docs/protocol.md, docs/security.md).
Loaded for an answer and forgotten after (felt.lazy).
"""

from felt import boardkey, protocol
from felt.runtime import chip_id


def board_id(board):
    """The board's own id where the chip has one (felt.runtime.chip_id), else its name."""
    return chip_id() or board["name"]


def vouched(key, board, nonce, kind, answer, field):
    """`answer` (a dict) given `field`: the MAC by the board's `key` of the canonical JSON
    of {"answer": the answer without it, "board": this board's id, "kind", "nonce"}."""
    data = protocol.dumps({"answer": answer, "board": board_id(board), "kind": kind,
                           "nonce": nonce})
    answer[field] = boardkey.sign(key, data.encode())
    return answer
