//! Figure 9 and its kin: kill rate and statement coverage versus scope, ours and the paper's,
//! one small panel per benchmark in one SVG (plotters' SVG backend).

use std::path::Path;

use anyhow::{anyhow, Result};
use plotters::prelude::*;

use super::paper::Paper;
use super::BenchmarkReport;

pub const FILE: &str = "figure9.svg";

const COLS: usize = 5;
const PANEL_W: u32 = 300;
const PANEL_H: u32 = 240;
const LEGEND_H: u32 = 70;

const KILL: RGBColor = RGBColor(0x1f, 0x5f, 0xbf);
const COVERAGE: RGBColor = RGBColor(0xc0, 0x3a, 0x1c);

/// One series of a panel: (scope, percent) points.
type Series = Vec<(f64, f64)>;

/// Draws the figure for `runs` into `path`.
pub fn draw(path: &Path, paper: &Paper, runs: &[BenchmarkReport]) -> Result<()> {
    let rows = runs.len().div_ceil(COLS).max(1);
    let cols = runs.len().clamp(1, COLS);
    let size = (cols as u32 * PANEL_W, rows as u32 * PANEL_H + LEGEND_H);
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let (panels, legend) = root.split_vertically(rows as u32 * PANEL_H);
    let areas = panels.split_evenly((rows, cols));
    for (run, area) in runs.iter().zip(areas.iter()) {
        panel(area, paper, run)?;
    }
    draw_legend(&legend)?;
    root.present().map_err(err)?;
    Ok(())
}

fn err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing the figure: {e:?}")
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    paper: &Paper,
    run: &BenchmarkReport,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let ours_kill: Series = run
        .scopes
        .iter()
        .map(|s| (s.scope as f64, s.kill_rate))
        .collect();
    let ours_cov: Series = run
        .scopes
        .iter()
        .map(|s| (s.scope as f64, s.statement_coverage))
        .collect();
    let rows = paper.table4.get(&run.name).cloned().unwrap_or_default();
    let paper_kill: Series = rows.iter().map(|r| (r.scope as f64, r.kill_rate)).collect();
    let paper_cov: Series = rows
        .iter()
        .map(|r| (r.scope as f64, r.statement_coverage))
        .collect();
    let max_scope = ours_kill
        .iter()
        .chain(&paper_kill)
        .map(|p| p.0)
        .fold(1.0, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption(&run.class, ("sans-serif", 17))
        .margin(8)
        .x_label_area_size(34)
        .y_label_area_size(40)
        .build_cartesian_2d(0.5..max_scope + 0.5, 0.0..102.0)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_labels(max_scope as usize)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_labels(6)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .x_desc("scope")
        .y_desc("%")
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 13))
        .light_line_style(WHITE)
        .draw()
        .map_err(err)?;
    for (series, color, width, dashed) in [
        (&paper_cov, COVERAGE, 4, true),
        (&paper_kill, KILL, 2, true),
        (&ours_cov, COVERAGE, 4, false),
        (&ours_kill, KILL, 2, false),
    ] {
        let style = ShapeStyle::from(&color).stroke_width(width);
        if dashed {
            chart
                .draw_series(DashedLineSeries::new(series.iter().copied(), 6, 4, style))
                .map_err(err)?;
        } else {
            chart
                .draw_series(LineSeries::new(series.iter().copied(), style))
                .map_err(err)?;
            chart
                .draw_series(
                    series
                        .iter()
                        .map(|p| Circle::new(*p, 3, ShapeStyle::from(&color).filled())),
                )
                .map_err(err)?;
        }
    }
    Ok(())
}

/// The legend, once for all panels, drawn by hand below them.
fn draw_legend<DB: DrawingBackend>(area: &DrawingArea<DB, plotters::coord::Shift>) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let entries = [
        ("statement coverage, ours", COVERAGE, 4, false),
        ("statement coverage, paper", COVERAGE, 4, true),
        ("mutants killed, ours", KILL, 2, false),
        ("mutants killed, paper", KILL, 2, true),
    ];
    let text = ("sans-serif", 15).into_font().color(&BLACK);
    for (i, (label, color, width, dashed)) in entries.iter().enumerate() {
        let x = 20 + (i as i32 % 2) * 330;
        let y = 15 + (i as i32 / 2) * 26;
        let style = ShapeStyle::from(color).stroke_width(*width);
        if *dashed {
            for k in 0..4 {
                let x0 = x + k * 12;
                area.draw(&PathElement::new(vec![(x0, y), (x0 + 7, y)], style))
                    .map_err(err)?;
            }
        } else {
            area.draw(&PathElement::new(vec![(x, y), (x + 43, y)], style))
                .map_err(err)?;
        }
        area.draw(&Text::new(label.to_string(), (x + 55, y - 8), text.clone()))
            .map_err(err)?;
    }
    let note = "Thick: statement coverage of the mutated code; thin: mutants killed; solid with dots: ours; dashed: the paper (Table 4).";
    area.draw(&Text::new(
        note,
        (700, 8),
        ("sans-serif", 13).into_font().color(&BLACK),
    ))
    .map_err(err)?;
    Ok(())
}
