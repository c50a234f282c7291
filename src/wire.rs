//! Wire forms of the grid values every answer and trace step shares (points, squares). A leaf
//! below both `api/` and `render/`, so the trace's wire form does not import the questions'.

use arbiter_rules::grid::{Point, Square};
use serde::Serialize;
use utoipa::ToSchema;

/// A point in square units.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct PointOut {
    /// East.
    pub x: f64,
    /// South.
    pub y: f64,
}

/// A square.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct SquareOut {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl From<Point> for PointOut {
    fn from(p: Point) -> PointOut {
        PointOut { x: p.x.to_f64(), y: p.y.to_f64() }
    }
}

impl From<Square> for SquareOut {
    fn from(s: Square) -> SquareOut {
        SquareOut { x: s.x, y: s.y }
    }
}

/// The squares of a list, in order.
pub fn squares(list: &[Square]) -> Vec<SquareOut> {
    list.iter().copied().map(SquareOut::from).collect()
}
