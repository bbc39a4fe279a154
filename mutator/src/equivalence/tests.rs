use super::copier::{dispatch, fix, taken_clone, uncopiable};
use super::ir::Module;
use super::*;
use syn::parse_quote;

/// Two copies of one function as LLVM writes them: other value names, another panic
/// line, closures and constants of their own; `third` reads another constant.
const IR: &str = r#"%"Node" = type { i64, i64 }

@alloc_f = private unnamed_addr constant [10 x i8] c"src/lib.rs", align 1
@alloc_l1 = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_f, [16 x i8] c"\0A\00\00\00\00\00\00\00\07\00\00\00\05\00\00\00" }>, align 8
@alloc_l2 = private unnamed_addr constant <{ ptr, [16 x i8] }> <{ ptr @alloc_f, [16 x i8] c"\0A\00\00\00\00\00\00\00\09\00\00\00\05\00\00\00" }>, align 8
@alloc_k1 = private unnamed_addr constant [4 x i8] c"\01\00\00\00", align 4
@alloc_k2 = private unnamed_addr constant [4 x i8] c"\02\00\00\00", align 4
@ferastrau_tce_00000_000003_z = unnamed_addr alias i64 (i64), ptr @ferastrau_tce_00000_000001_z

define i64 @ferastrau_tce_00000_000000_z(i64 %x) unnamed_addr #3 {
start:
  %_5 = call i64 @_ZN1a29ferastrau_tce_00000_000000_z28_$u7b$$u7b$closure$u7d$$u7d$17h1111111111111111E(i64 %x), !range !4
  %n = load i64, ptr @alloc_k1, align 4, !noundef !6
  %s = alloca %"Node", align 8
  call void @_ZN4core9panicking5panic17h0123456789abcdefE(ptr @alloc_l1) #7
  ret i64 %_5
}

define internal i64 @_ZN1a29ferastrau_tce_00000_000000_z28_$u7b$$u7b$closure$u7d$$u7d$17h1111111111111111E(i64 %y) #2 {
start:
  %r = add i64 %y, 1
  ret i64 %r
}

define i64 @ferastrau_tce_00000_000001_z(i64 %v) unnamed_addr #4 {
start:
  %_9 = call i64 @_ZN1a29ferastrau_tce_00000_000001_z28_$u7b$$u7b$closure$u7d$$u7d$17h2222222222222222E(i64 %v), !range !5
  %m = load i64, ptr @alloc_k1, align 4, !noundef !6
  %t = alloca %"Node", align 8
  call void @_ZN4core9panicking5panic17h0123456789abcdefE(ptr @alloc_l2) #8
  ret i64 %_9
}

define internal i64 @_ZN1a29ferastrau_tce_00000_000001_z28_$u7b$$u7b$closure$u7d$$u7d$17h2222222222222222E(i64 %w) #2 {
start:
  %q = add i64 %w, 1
  ret i64 %q
}

define i64 @ferastrau_tce_00000_000002_z(i64 %v) unnamed_addr #4 {
start:
  %_9 = call i64 @_ZN1a29ferastrau_tce_00000_000002_z28_$u7b$$u7b$closure$u7d$$u7d$17h3333333333333333E(i64 %v)
  %m = load i64, ptr @alloc_k2, align 4
  %t = alloca %"Node", align 8
  call void @_ZN4core9panicking5panic17h0123456789abcdefE(ptr @alloc_l2)
  ret i64 %_9
}

define internal i64 @_ZN1a29ferastrau_tce_00000_000002_z28_$u7b$$u7b$closure$u7d$$u7d$17h3333333333333333E(i64 %w) #2 {
start:
  %q = add i64 %w, 1
  ret i64 %q
}
"#;

#[test]
fn copies_equal_but_for_names_locations_and_annotations_compare_equal() {
    let m = Module::parse(IR);
    let c = |id: u32| m.canonical(&symbol(0, id)).unwrap();
    assert_eq!(c(0), c(1));
    // An alias left by LLVM's function merging is its aliasee's code.
    assert_eq!(c(3), c(1));
    // Another constant's content is another program.
    assert_ne!(c(0), c(2));
    assert!(c(0).contains("%\"Node\""), "{}", c(0));
    assert!(m.canonical("ferastrau_tce_00000_000009_z").is_none());
}

#[test]
fn only_a_panic_location_loses_its_line_and_column() {
    let m = Module::parse(IR);
    assert!(m.is_location(IR.lines().nth(3).unwrap()));
    // A constant of that shape that points at anything but a `.rs` file name is data.
    let data = IR.replace("c\"src/lib.rs\"", "c\"src/lib.rx\"");
    let d = Module::parse(&data);
    assert_ne!(
        d.canonical(&symbol(0, 0)).unwrap(),
        d.canonical(&symbol(0, 1)).unwrap()
    );
}

#[test]
fn verdicts_name_the_original_or_the_lowest_equal_mutant() {
    let m = Module::parse(IR);
    let copied = Copied {
        function: "f".into(),
        symbols: (0..4).map(|id| (id, symbol(0, id))).collect(),
    };
    let v = judge(&m, &copied).unwrap();
    assert_eq!(v.get(&1), Some(&Verdict::Equivalent));
    assert_eq!(v.get(&3), Some(&Verdict::Equivalent));
    assert_eq!(v.get(&2), None);
    let e = Equivalence {
        verdicts: BTreeMap::from([(5, Verdict::Duplicate { of: 7 })]),
        compared: BTreeSet::from([5, 7]),
        ..Equivalence::default()
    };
    assert!(check(&e).is_err());
}

/// A function as the rewrite leaves it: mutants 3 and 4 of its one point, behind the dispatch.
fn mutated_fn() -> syn::ItemFn {
    parse_quote! {
        fn f(&mut self, x: u32) -> u32 {
            let __ferastrau_cov = ::ferastrau_probes::coverage();
            let __ferastrau_active = ::ferastrau_probes::active();
            ::ferastrau_probes::tick();
            if __ferastrau_active >= 3 && __ferastrau_active <= 4 {
                ::ferastrau_probes::cover_if(__ferastrau_cov, 1);
                if ::ferastrau_probes::branch_if(__ferastrau_cov, (match __ferastrau_active { 3 => x >= 1, _ => x > 1 }), 2, 3) { 1 } else { 2 }
            } else if ::ferastrau_probes::reaching() {
                if (match ::ferastrau_probes::reach(3, 4) { _ => x > 1 }) { 1 } else { 2 }
            } else {
                ::ferastrau_probes::cover_if(__ferastrau_cov, 1);
                if ::ferastrau_probes::branch_if(__ferastrau_cov, x > 1, 2, 3) { 1 } else { 2 }
            }
        }
    }
}

#[test]
fn the_copy_of_a_mutant_takes_its_arm_and_leaves_out_the_switch() {
    let mut f = mutated_fn();
    assert_eq!(dispatch(&f.block), Some((3, 4)));
    let text = |id| {
        let mut g = f.clone();
        fix(&mut g.attrs, &mut g.vis, &mut g.block, id);
        quote::quote!(#g).to_string()
    };
    let (original, mutant) = (text(0), text(3));
    assert!(
        original.contains("x > 1") && !original.contains(">="),
        "{original}"
    );
    assert!(
        mutant.contains("x >= 1") && !mutant.contains("x > 1"),
        "{mutant}"
    );
    for t in [&original, &mutant] {
        for gone in ["active ()", "coverage ()", "reach", "cover_if", "branch_if"] {
            assert!(!t.contains(gone), "{gone} in {t}");
        }
        assert!(t.contains("tick ()") && t.contains("no_mangle"), "{t}");
    }
    f.sig.generics = parse_quote!(<T>);
    assert!(uncopiable(&f.sig).is_some());
}

/// The copier clones, of the dispatch, only the body a copy takes: the same copy as the whole
/// function cloned and fixed, for the original and each mutant.
#[test]
fn a_copy_cloned_with_its_taken_body_alone_is_the_whole_function_fixed() {
    let f = mutated_fn();
    for id in [0, 3, 4] {
        let mut whole = f.clone();
        fix(&mut whole.attrs, &mut whole.vis, &mut whole.block, id);
        let mut taken = f.clone();
        *taken.block = taken_clone(&f.block, id);
        assert_ne!(
            quote::quote!(#taken).to_string(),
            quote::quote!(#f).to_string()
        );
        fix(&mut taken.attrs, &mut taken.vis, &mut taken.block, id);
        assert_eq!(
            quote::quote!(#taken).to_string(),
            quote::quote!(#whole).to_string(),
            "mutant {id}"
        );
    }
}

/// A [`Beside`] whose compile is `script` (a shell script writing to the log) over copies of
/// one function, its IR and log in `dir`.
fn beside(dir: &Path, script: &str) -> Beside {
    let log = dir.join("log");
    let mut cmd = std::process::Command::new("sh");
    cmd.args(["-c", script])
        .stdout(std::fs::File::create(&log).unwrap())
        .stderr(std::fs::File::create(&log).unwrap());
    let copies = Copies {
        copied: vec![Copied {
            function: "f".into(),
            symbols: [(0, symbol(0, 0)), (1, symbol(0, 1))].into(),
        }],
        compared: [1].into(),
        started: Some(Instant::now()),
        ..Copies::default()
    };
    Beside(Work::Compiling {
        compile: Compile::spawn(&mut cmd, copies, dir.join("x.ll")).unwrap(),
        log,
    })
}

#[test]
fn a_compile_beside_the_build_that_fails_gives_why_and_no_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let failed = beside(
        dir.path(),
        "echo 'error[E0463]: cannot find crate' >&2; exit 1",
    );
    assert_eq!(
        failed.finish().unwrap(),
        Err("error[E0463]: cannot find crate".to_string())
    );
    // Success without the IR it was to write is a failure too.
    let silent = beside(dir.path(), "exit 0");
    assert_eq!(silent.finish().unwrap(), Err("(no output)".to_string()));
}

#[test]
fn a_compile_beside_the_build_gives_the_verdicts_of_its_ir() {
    let dir = tempfile::tempdir().unwrap();
    let ir = dir.path().join("x.ll");
    let copy = |n: u32| {
        format!(
            "define i64 @{}(i64 %x) {{\nstart:\n  %r = add i64 %x, 1\n  ret i64 %r\n}}\n",
            symbol(0, n)
        )
    };
    std::fs::write(dir.path().join("ir.txt"), copy(0) + &copy(1)).unwrap();
    let b = beside(
        dir.path(),
        &format!(
            "cp {} {}",
            dir.path().join("ir.txt").display(),
            ir.display()
        ),
    );
    let e = b.finish().unwrap().unwrap();
    assert_eq!(e.verdicts, [(1, Verdict::Equivalent)].into());
    assert_eq!(e.compiled, Compiled::BesideTheBuild);
}

#[test]
fn a_compile_beside_the_build_dropped_unfinished_is_killed_and_reaped() {
    let dir = tempfile::tempdir().unwrap();
    let b = beside(dir.path(), "exec sleep 30");
    let Beside(Work::Compiling { compile, .. }) = &b else {
        panic!("nothing compiling")
    };
    let pid = nix::unistd::Pid::from_raw(compile.child.id() as i32);
    let started = Instant::now();
    drop(b);
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    // Reaped: no such process (not even a zombie).
    assert_eq!(
        nix::sys::signal::kill(pid, None),
        Err(nix::errno::Errno::ESRCH)
    );
}
