//! Exact line tests (`grid.segment.classify`, `grid.line.blocked`). Filled in by the cover work.
