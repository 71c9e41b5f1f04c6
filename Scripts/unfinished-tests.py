#!/usr/bin/env python3
"""Lists the tests a Swift Testing log shows as started and never ended.

Usage: Scripts/unfinished-tests.py LOG

Reads the console output of `swift test` (the lines "◇ Test NAME started." and
"✔/✘ Test NAME passed/failed ...") and prints each test, or test case of a
parameterized test, that started and has no end line, in the order they started. The
stall watchdog (Scripts/stall-watchdog.sh) prints this for a test process it stops.
"""
import re
import sys

STARTED = re.compile(r"^◇ Test (?:case passing .*? to )?(?P<name>\S+?\(.*?\)) started\.")
CASE_STARTED = re.compile(r"^◇ Test case passing (?P<arguments>.*) to (?P<name>\S+?\(.*?\)) started\.")
ENDED = re.compile(r"^[✔✘] Test (?P<name>\S+?\(.*?\)) (?:passed|failed|with|recorded)")


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    running: dict[str, int] = {}
    with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
        for number, line in enumerate(log, start=1):
            if CASE_STARTED.match(line):
                continue  # a case of a test whose own start line came first
            started = STARTED.match(line)
            if started:
                running[started.group("name")] = number
                continue
            ended = ENDED.match(line)
            if ended:
                running.pop(ended.group("name"), None)
    for name, number in sorted(running.items(), key=lambda item: item[1]):
        print(f"  {name} (started on line {number} of the log)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
