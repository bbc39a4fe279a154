//! Opening a report page in headless Chromium (Debian's `chromium` package): a screenshot,
//! and the DOM after the page's script ran, with every uncaught script error it reported.
//!
//! The browser is found as `scripts/test-prerequisites.sh` finds it (which installs it when
//! it is missing): `$FERASTRAU_CHROMIUM`, `/usr/bin/chromium`, `/usr/bin/chromium-browser`, or
//! `chromium` / `chromium-browser` on the PATH. Without one, a test that needs it fails
//! saying so and naming the script: it never passes without looking at the page.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The script that installs or locates what the tests need.
pub const PREREQUISITES: &str = "scripts/test-prerequisites.sh";

/// The Chromium binary the tests run, or why there is none.
pub fn binary() -> Result<PathBuf, String> {
    find(
        std::env::var_os("FERASTRAU_CHROMIUM"),
        &["/usr/bin/chromium", "/usr/bin/chromium-browser"].map(PathBuf::from),
        std::env::var_os("PATH"),
    )
}

/// [`binary`]'s search: `env` (`$FERASTRAU_CHROMIUM`) if set, else the first of `fixed`, then
/// `chromium` or `chromium-browser` in the directories of `path`, that exists.
pub fn find(
    env: Option<OsString>,
    fixed: &[PathBuf],
    path: Option<OsString>,
) -> Result<PathBuf, String> {
    if let Some(p) = env {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!(
                "FERASTRAU_CHROMIUM={} is not a file: run `bash {PREREQUISITES}`, or point it \
                 at Chromium",
                p.display()
            ))
        };
    }
    let on_path = path
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .flat_map(|d| [d.join("chromium"), d.join("chromium-browser")]);
    fixed
        .iter()
        .cloned()
        .chain(on_path)
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!(
                "no Chromium for the HTML report's browser test (looked for $FERASTRAU_CHROMIUM, \
                 /usr/bin/chromium, /usr/bin/chromium-browser and chromium on the PATH): run \
                 `bash {PREREQUISITES}` once, which installs it with the system's package manager"
            )
        })
}

/// What the page showed after loading.
pub struct Loaded {
    /// The status counts the page's script computed from the mutants it lists (`#counted`).
    pub counted: serde_json::Value,
    /// The counts of the mutants the filters leave shown (`#shown-counted`), by status, and
    /// `total`.
    pub shown: serde_json::Value,
    /// With [`load_replaying`]: after loading and after each step, the survivor that is
    /// current, the counts shown and the page's height (`#test-trail`).
    pub trail: Vec<serde_json::Value>,
    pub dom: String,
}

fn chromium(profile: &Path, extra: &[&str], page: &Path, hash: &str) -> std::process::Output {
    let chromium = binary().unwrap_or_else(|e| panic!("{e}"));
    let url = format!("file://{}{hash}", page.canonicalize().unwrap().display());
    Command::new(&chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs")
}

/// Saves a screenshot of `page` (1280×2000) to `png`.
pub fn screenshot(page: &Path, png: &Path) {
    let profile = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(png.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(png);
    let o = chromium(
        profile.path(),
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1280,2000",
        ],
        page,
        "",
    );
    let bytes = std::fs::read(png).unwrap_or_else(|e| {
        panic!(
            "no screenshot at {} ({e}): {}",
            png.display(),
            String::from_utf8_lossy(&o.stderr)
        )
    });
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 20_000,
        "{} is not a screenshot of a page ({} bytes)",
        png.display(),
        bytes.len()
    );
}

/// Loads `page`, runs its script, and returns what it counted; an uncaught script error
/// (recorded by the page into `#js-errors`, or logged by Chromium's console) or a script that
/// did not finish is an error.
pub fn load(page: &Path) -> Result<Loaded, String> {
    load_replaying(page, &[])
}

/// [`load`], then the page's test hook (`#test=…` in the URL) replays `steps` as the reader
/// would: a key (`n`, `p`, `j`, `k`) is a keydown event on the document, `click:STATUS` a
/// click on that status's filter box.
pub fn load_replaying(page: &Path, steps: &[&str]) -> Result<Loaded, String> {
    let profile = tempfile::tempdir().unwrap();
    let hash = if steps.is_empty() {
        String::new()
    } else {
        format!("#test={}", steps.join(","))
    };
    let o = chromium(
        profile.path(),
        &["--dump-dom", "--enable-logging=stderr", "--v=0"],
        page,
        &hash,
    );
    let dom = String::from_utf8_lossy(&o.stdout).into_owned();
    let log = String::from_utf8_lossy(&o.stderr);
    let console: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") && (l.contains("Uncaught") || l.contains("Error")))
        .collect();
    if !console.is_empty() {
        return Err(format!("console errors: {}", console.join("\n")));
    }
    let errors = between(&dom, "<pre id=\"js-errors\"", "</pre>")
        .ok_or_else(|| format!("the page has no #js-errors element: {}", head(&dom)))?;
    let errors = errors.split_once('>').map_or("", |(_, t)| t);
    if !errors.trim().is_empty() {
        return Err(format!("the page recorded script errors: {errors}"));
    }
    if !dom.contains("data-ready=\"1\"") {
        return Err(format!("the page's script did not finish: {}", head(&dom)));
    }
    let counted = between(&dom, "<pre id=\"counted\" hidden=\"\">", "</pre>")
        .ok_or_else(|| "the page shows no #counted".to_string())?;
    let counted = serde_json::from_str(counted)
        .map_err(|e| format!("#counted is not JSON ({e}): {counted}"))?;
    let shown = between(&dom, "<pre id=\"shown-counted\" hidden=\"\">", "</pre>")
        .ok_or_else(|| "the page shows no #shown-counted".to_string())?;
    let shown = serde_json::from_str(shown)
        .map_err(|e| format!("#shown-counted is not JSON ({e}): {shown}"))?;
    let trail = match between(&dom, "<pre id=\"test-trail\" hidden=\"\">", "</pre>") {
        Some(t) if !steps.is_empty() => {
            serde_json::from_str(t).map_err(|e| format!("#test-trail is not JSON ({e}): {t}"))?
        }
        _ if !steps.is_empty() => return Err("the page wrote no #test-trail".into()),
        _ => Vec::new(),
    };
    if trail.len() != steps.len() + (!steps.is_empty()) as usize {
        return Err(format!(
            "the page replayed {} steps of {}",
            trail.len(),
            steps.len()
        ));
    }
    Ok(Loaded {
        counted,
        shown,
        trail,
        dom,
    })
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let a = text.find(start)? + start.len();
    let b = text[a..].find(end)? + a;
    Some(&text[a..b])
}

fn head(dom: &str) -> &str {
    &dom[..dom.len().min(600)]
}
