//! `report.svg`: the round histogram and the win rates of a batch, drawn with plotters' SVG
//! backend (text is SVG text: no font or system library is needed to draw it).

use plotters::prelude::*;

use super::{SimError, Summary};

/// Series colours, one per ruleset (histogram) or per side (win rates).
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];
const DRAW_COLOUR: RGBColor = RGBColor(160, 160, 160);

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// The report as SVG text.
pub(crate) fn report_svg(s: &Summary) -> Result<String, SimError> {
    let mut svg = String::new();
    draw(s, &mut svg).map_err(|e| SimError::Io(format!("cannot draw the report: {e}")))?;
    Ok(svg)
}

fn draw(s: &Summary, out: &mut String) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(out, (960, 760)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!("{} — {} runs, seed {}", s.encounter, s.rulesets.first().map_or(0, |r| r.tally.runs), s.seed);
    let root = root.titled(&title, ("sans-serif", 22))?;
    let (top, bottom) = root.split_vertically(380);

    // Rounds to finish: the share of runs ending in each round, one bar per ruleset.
    let lo = s.rulesets.iter().filter_map(|r| r.tally.rounds_histogram.iter().position(|&n| n > 0)).min().unwrap_or(0);
    let hi = s.rulesets.iter().map(|r| r.tally.rounds_histogram.len()).max().unwrap_or(1).max(lo + 1);
    let share = |r: &super::RulesetSummary, k: usize| {
        let n = r.tally.rounds_histogram.get(k).copied().unwrap_or(0);
        if r.tally.runs == 0 { 0.0 } else { 100.0 * n as f64 / r.tally.runs as f64 }
    };
    let ymax = s.rulesets.iter().flat_map(|r| (lo..hi).map(move |k| share(r, k))).fold(1.0f64, f64::max) * 1.1;
    let mut chart = ChartBuilder::on(&top)
        .caption("Rounds to finish (share of runs)", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(52)
        .build_cartesian_2d(lo as f64 - 0.5..hi as f64 - 0.5, 0.0..ymax)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("round")
        .y_desc("% of runs")
        .x_label_formatter(&|x| {
            if (x - x.round()).abs() < 1e-9 { format!("{}", x.round() as i64) } else { String::new() }
        })
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;
    let k = s.rulesets.len().max(1) as f64;
    for (i, r) in s.rulesets.iter().enumerate() {
        let c = colour(i);
        let w = 0.8 / k;
        chart
            .draw_series((lo..hi).filter(|&x| share(r, x) > 0.0).map(|x| {
                let x0 = x as f64 - 0.4 + w * i as f64;
                Rectangle::new([(x0, 0.0), (x0 + w, share(r, x))], c.filled())
            }))?
            .label(format!(
                "{} (median {}, mean {:.1})",
                r.ruleset,
                r.derived.rounds_median.map_or("-".into(), |m| m.to_string()),
                r.derived.rounds_mean.unwrap_or(0.0)
            ))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], c.filled()));
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;

    // Win rates with their 95% intervals: per ruleset, one bar per side and one for round-cap draws.
    let groups = s.rulesets.len().max(1);
    let bars = s.sides.len() + 1;
    let mut chart = ChartBuilder::on(&bottom)
        .caption("Win rate per side (bars: 95% Wilson interval; grey: draws at the round cap)", ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(10)
        .y_label_area_size(52)
        .build_cartesian_2d(0.0..groups as f64, -9.0..105.0)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_x_axis()
        .y_desc("% of runs")
        .y_label_formatter(&|y| if *y < 0.0 { String::new() } else { format!("{y:.0}") })
        .draw()?;
    let width = 0.8 / bars as f64;
    for (g, r) in s.rulesets.iter().enumerate() {
        let entries =
            r.derived.sides.iter().map(|d| d.win).chain(std::iter::once(r.derived.draws_round_cap)).enumerate();
        for (b, rate) in entries {
            let Some(rate) = rate else { continue };
            let c = if b < s.sides.len() { colour(b) } else { DRAW_COLOUR };
            let x0 = g as f64 + 0.1 + width * b as f64;
            let xm = x0 + width / 2.0;
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x0 + width * 0.1, 0.0), (x0 + width * 0.9, rate.rate * 100.0)],
                c.filled(),
            )))?;
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(xm, rate.low * 100.0), (xm, rate.high * 100.0)],
                BLACK.stroke_width(2),
            )))?;
            for y in [rate.low, rate.high] {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(xm - width * 0.2, y * 100.0), (xm + width * 0.2, y * 100.0)],
                    BLACK.stroke_width(2),
                )))?;
            }
            chart.draw_series(std::iter::once(Text::new(
                format!("{:.0}%", rate.rate * 100.0),
                (x0 + width * 0.15, rate.high * 100.0 + 5.0),
                ("sans-serif", 13),
            )))?;
        }
        chart.draw_series(std::iter::once(Text::new(
            r.ruleset.clone(),
            (g as f64 + 0.1, -4.0),
            ("sans-serif", 16).into_font().color(&BLACK),
        )))?;
    }
    for (b, side) in s.sides.iter().enumerate() {
        let c = colour(b);
        chart
            .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())?
            .label(format!("{side} wins"))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], c.filled()));
    }
    chart
        .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())?
        .label("draws at round cap")
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], DRAW_COLOUR.filled()));
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
