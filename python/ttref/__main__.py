"""`python3 -m ttref ARGS...` runs the ttref command line tool with ARGS."""
import os
import sys

from . import _find_binary


def main():
    exe = _find_binary()
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
