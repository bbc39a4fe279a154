//! The page's chart: kill rate and code coverage versus scope, as inline SVG written by hand
//! (a few lines and labels; no plotting library, nothing fetched by the browser).

use maud::{html, Markup};

use super::model::EvaluationScope;

const W: f64 = 680.0;
const H: f64 = 330.0;
const LEFT: f64 = 52.0;
const RIGHT: f64 = 190.0;
const TOP: f64 = 18.0;
const BOTTOM: f64 = 46.0;

/// One line of the chart: a name, a colour, a dash pattern and the value at each scope.
struct Series {
    name: &'static str,
    colour: &'static str,
    dash: &'static str,
    value: fn(&EvaluationScope) -> f64,
}

const SERIES: [Series; 3] = [
    Series {
        name: "kill rate",
        colour: "#c0392b",
        dash: "",
        value: |r| r.kill_rate,
    },
    Series {
        name: "statement coverage",
        colour: "#2471a3",
        dash: "",
        value: |r| r.statement_coverage,
    },
    Series {
        name: "branch coverage",
        colour: "#17a589",
        dash: "2 3",
        value: |r| r.branch_coverage,
    },
];

fn x_of(i: usize, n: usize) -> f64 {
    let span = W - LEFT - RIGHT;
    if n <= 1 {
        LEFT + span / 2.0
    } else {
        LEFT + span * i as f64 / (n - 1) as f64
    }
}

fn y_of(percent: f64) -> f64 {
    TOP + (H - TOP - BOTTOM) * (1.0 - percent.clamp(0.0, 100.0) / 100.0)
}

/// The chart of `rows` (one per scope, in scope order).
pub fn chart(rows: &[EvaluationScope]) -> Markup {
    let n = rows.len();
    let (x0, x1) = (LEFT, W - RIGHT);
    html! {
        svg class="chart" xmlns="http://www.w3.org/2000/svg" width=(W) height=(H)
            viewBox=(format!("0 0 {W} {H}")) role="img"
            aria-label="kill rate and coverage versus scope" {
            // Horizontal grid and the percent axis.
            @for p in (0..=100).step_by(20) {
                @let y = y_of(p as f64);
                line x1=(x0) x2=(x1) y1=(y) y2=(y) class="grid" {}
                text x=(x0 - 8.0) y=(y + 4.0) text-anchor="end" class="tick" { (p) "%" }
            }
            // Scope axis.
            @for (i, r) in rows.iter().enumerate() {
                @let x = x_of(i, n);
                line x1=(x) x2=(x) y1=(y_of(0.0)) y2=(y_of(0.0) + 5.0) class="axis" {}
                text x=(x) y=(y_of(0.0) + 19.0) text-anchor="middle" class="tick" { (r.scope) }
            }
            line x1=(x0) x2=(x1) y1=(y_of(0.0)) y2=(y_of(0.0)) class="axis" {}
            line x1=(x0) x2=(x0) y1=(y_of(0.0)) y2=(y_of(100.0)) class="axis" {}
            text x=((x0 + x1) / 2.0) y=(H - 6.0) text-anchor="middle" class="label" { "scope" }
            @for s in &SERIES {
                @let points: Vec<String> = rows.iter().enumerate()
                    .map(|(i, r)| format!("{:.1},{:.1}", x_of(i, n), y_of((s.value)(r))))
                    .collect();
                polyline points=(points.join(" ")) fill="none" stroke=(s.colour)
                    stroke-width="2.5" stroke-dasharray=(s.dash) {}
                @for (i, r) in rows.iter().enumerate() {
                    circle cx=(format!("{:.1}", x_of(i, n))) cy=(format!("{:.1}", y_of((s.value)(r))))
                        r="3.5" fill=(s.colour) {
                        title { (s.name) ", scope " (r.scope) ": " (format!("{:.2}", (s.value)(r))) "%" }
                    }
                }
            }
            // Legend, right of the plot.
            @for (i, s) in SERIES.iter().enumerate() {
                @let y = TOP + 14.0 + 24.0 * i as f64;
                line x1=(x1 + 18.0) x2=(x1 + 46.0) y1=(y) y2=(y) stroke=(s.colour)
                    stroke-width="2.5" stroke-dasharray=(s.dash) {}
                text x=(x1 + 52.0) y=(y + 4.0) class="legend" { (s.name) }
            }
        }
    }
}
