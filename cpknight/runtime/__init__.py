"""What every part of the package needs of the interpreter and the machine.

- :mod:`~cpknight.runtime.lazy`: public names loaded on first use;
- :mod:`~cpknight.runtime.optional`: optional dependencies, with one line that
  says what to install;
- :mod:`~cpknight.runtime.memory`: the memory budget every big build is
  estimated against;
- :mod:`~cpknight.runtime.files`: the one safe file writer;
- :mod:`~cpknight.runtime.progress`: one progress shape and its tqdm bar.

It stands low (above :mod:`cpknight.errors`, below the boards): nothing here
knows a board, a piece or a question.
"""
