"""felt.table.reports: what a table seldom does; here, naming where a fault of the
firmware was raised (internal_fault, docs/tilts.md)."""

from felt.guard import Guard
from felt.table.reports import place


def test_place_names_the_exception_the_function_and_the_file_it_was_raised_in():
    def handler():
        raise TypeError("a bug")
    try:
        handler()
    except TypeError as e:
        assert place(e) == "TypeError in handler (test_reports.py)"
    try:
        Guard(None).beat("x")            # raised inside felt: its path from felt/ on
    except TypeError as e:
        assert place(e) == "TypeError in beat (felt/guard.py)", place(e)
    assert place(ValueError("never raised")) == "ValueError"


def test_place_names_a_file_outside_the_firmware_by_its_name_wherever_it_is():
    # A checkout in a folder named felt (CI's clone) is not the firmware's package.
    code = {}
    exec(compile("def handler():\n    raise KeyError(1)\n", "/tmp/felt/tests/x.py", "exec"),
         code)
    try:
        code["handler"]()
    except KeyError as e:
        assert place(e) == "KeyError in handler (x.py)", place(e)
