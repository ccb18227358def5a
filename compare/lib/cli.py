# SPDX-License-Identifier: GPL-2.0
"""The command line of compare/'s Python programs: parser(PROG, DOC), whose --help is DOC (its
first paragraph above the options, the rest below them) and whose usage error is one line
naming the problem (exit 2), not the usage block."""

import argparse


class OneLineParser(argparse.ArgumentParser):
    """A usage error as one line naming the problem (exit 2), not the usage block."""
    def error(self, message):
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def parser(prog, doc):
    """A OneLineParser for PROG with DOC as its --help."""
    return OneLineParser(prog=prog, description=doc.split("\n\n")[0],
                         formatter_class=argparse.RawDescriptionHelpFormatter,
                         epilog=doc.split("\n\n", 1)[1])
