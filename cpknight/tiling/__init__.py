"""The huge-board tiler: knight's tours of plain rectangles from structured tiles."""
