//! Universal VTT files (`.dd2vtt`, `.uvtt`, `.df2vtt`) to an Arbiter grid.
