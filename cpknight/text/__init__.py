"""The text face of every value, beside the drawings of :mod:`cpknight.draw`.

- :mod:`~cpknight.text.render`: board diagrams, distance maps, tours and
  tables as plain text;
- :mod:`~cpknight.text.display`: how values show themselves (``__str__`` and
  the HTML tables of a notebook);
- :mod:`~cpknight.text.reports`: what each command prints as its answer;
- :mod:`~cpknight.text.frames`: the rows and columns of every
  ``to_dataframe()``.

Library code never prints: these modules return strings (and frames), and the
command line prints them.
"""
