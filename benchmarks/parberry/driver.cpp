// Driver for Ian Parberry's divide-and-conquer knight's tour generator
// (github.com/Ian-Parberry/Tourney, MIT licence): generates one closed
// N x N knight's tour with his CDivideAndConquer and writes it as cpknight's
// text tour file, one cell a line as zero-based "row,column" (the names
// cpknight gives cells on boards wider than 26 files), in tour order.
//
// Usage: tourney N OUTBASE [WRITER]   (writes OUTBASE.txt; exit 1 on a failure)
//
// WRITER: "buffer" (the default) formats the text by hand into one buffer
// written with one fwrite, the fastest plain way in C++; "printf" writes
// each line with fprintf, the everyday way; "none" writes nothing (the
// construction and the walk alone).
//
// Build (the Tourney sources are fetched, not kept in this repository), from
// this repository's top, with TOURNEY a checkout of Tourney:
//
//   g++ -std=c++11 -O3 -pthread -I$TOURNEY/Code -o tourney \
//       benchmarks/parberry/driver.cpp $TOURNEY/Code/BaseBoard.cpp \
//       $TOURNEY/Code/Board.cpp $TOURNEY/Code/DivideAndConquer.cpp \
//       $TOURNEY/Code/Tile.cpp $TOURNEY/Code/Helpers.cpp \
//       $TOURNEY/Code/Graph.cpp $TOURNEY/Code/Rail.cpp \
//       $TOURNEY/Code/Random.cpp $TOURNEY/Code/Structs.cpp
//
// (benchmarks/parberry/build.sh does exactly this).

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "Board.h"
#include "DivideAndConquer.h"

static char* put_number(char* at, int value) {
  char digits[12];
  int k = 0;
  do {
    digits[k++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0);
  while (k > 0) *at++ = digits[--k];
  return at;
}

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: %s N OUTBASE [buffer|printf|none]\n", argv[0]);
    return 2;
  }
  const std::string writer = argc == 4 ? argv[3] : "buffer";
  if (writer != "buffer" && writer != "printf" && writer != "none") {
    std::fprintf(stderr, "WRITER is buffer, printf or none: %s\n", argv[3]);
    return 2;
  }
  const int n = std::atoi(argv[1]);
  if (n < 12 || n % 2 != 0) {
    std::fprintf(stderr, "N must be even and at least 12: %s\n", argv[1]);
    return 2;
  }
  CBoard board(n, n);
  CDivideAndConquer generator;
  generator.Generate(board, CycleType::Tour);

  // Walk the (undirected, one successor a cell) tour from cell 0, writing
  // each cell's row and column; it must come back to 0 after n * n cells.
  const long size = static_cast<long>(n) * n;
  std::vector<int> order(static_cast<size_t>(size));
  int cell = 0;
  for (long k = 0; k < size; ++k) {
    if (cell < 0 || cell >= size || (k > 0 && cell == 0)) {
      std::fprintf(stderr, "not a closed tour: cell %d at step %ld\n", cell, k);
      return 1;
    }
    order[static_cast<size_t>(k)] = cell;
    cell = board[cell];
  }
  if (cell != 0) {
    std::fprintf(stderr, "not a closed tour: it does not come back\n");
    return 1;
  }
  if (writer == "none") return 0;
  const std::string name = std::string(argv[2]) + ".txt";
  std::FILE* out = std::fopen(name.c_str(), "wb");
  if (out == nullptr) {
    std::perror(name.c_str());
    return 1;
  }
  bool written = true;
  if (writer == "printf") {
    for (const int c : order)
      written = written && std::fprintf(out, "%d,%d\n", c / n, c % n) > 0;
  } else {
    std::vector<char> text(static_cast<size_t>(size) * 12);
    char* at = text.data();
    for (const int c : order) {
      at = put_number(at, c / n);
      *at++ = ',';
      at = put_number(at, c % n);
      *at++ = '\n';
    }
    const size_t length = static_cast<size_t>(at - text.data());
    written = std::fwrite(text.data(), 1, length, out) == length;
  }
  if (std::fclose(out) != 0 || !written) {
    std::perror(name.c_str());
    return 1;
  }
  return 0;
}
