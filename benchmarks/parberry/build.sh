#!/bin/sh
# Build Parberry's divide-and-conquer tour program with cpknight's driver.
#
# Usage: benchmarks/parberry/build.sh TOURNEY_CHECKOUT OUTPUT_PROGRAM
#
# TOURNEY_CHECKOUT is a checkout of github.com/Ian-Parberry/Tourney (MIT
# licence; not kept in this repository), e.g.
#   git clone https://github.com/Ian-Parberry/Tourney /tmp/Tourney
#   benchmarks/parberry/build.sh /tmp/Tourney /tmp/tourney
#   python benchmarks/huge.py --parberry /tmp/tourney --parberry-only
set -eu
code="$1/Code"
here=$(dirname "$0")
g++ -std=c++11 -O3 -pthread -I"$code" -o "$2" "$here/driver.cpp" \
    "$code/BaseBoard.cpp" "$code/Board.cpp" "$code/DivideAndConquer.cpp" \
    "$code/Tile.cpp" "$code/Helpers.cpp" "$code/Graph.cpp" "$code/Rail.cpp" \
    "$code/Random.cpp" "$code/Structs.cpp"
