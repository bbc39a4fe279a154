//! The operator tables: which binary operator may replace which, given the operand types, and
//! the syntactic facts (precedence, compound assignment, literal operands) the walk needs.

use syn::{BinOp, Expr};

use crate::types::Ty;

/// The binary operators for which the compiler demands operands of one type when both are
/// integers (or both floats): arithmetic, bitwise and comparison, plain or compound. Shifts
/// and the lazy boolean operators are not among them.
pub(super) fn equal_operands(op: &BinOp) -> bool {
    use BinOp::*;
    matches!(
        op,
        Add(_)
            | Sub(_)
            | Mul(_)
            | Div(_)
            | Rem(_)
            | BitAnd(_)
            | BitOr(_)
            | BitXor(_)
            | Eq(_)
            | Ne(_)
            | Lt(_)
            | Le(_)
            | Gt(_)
            | Ge(_)
            | AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | BitXorAssign(_)
    )
}

/// A numeric literal, possibly negated or parenthesised: its type is settled anew in every
/// arm of a guarded choice.
pub(super) fn is_literal(e: &Expr) -> bool {
    match e {
        Expr::Lit(l) => matches!(l.lit, syn::Lit::Int(_) | syn::Lit::Float(_)),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => is_literal(&u.expr),
        Expr::Paren(p) => is_literal(&p.expr),
        Expr::Group(g) => is_literal(&g.expr),
        _ => false,
    }
}

/// An increment: `x += 1` or `x -= 1`, the statement a port writes for Java's `x++`/`x--`
/// (Rust has no `++`). The paper's Ferastrau mutated `x++` as one operator, to `x--`, and the
/// variable `x`; there is no constant in it to mutate. So an increment's operator becomes only
/// its opposite, and its `1` is no constant point: otherwise every ported `x++` would carry
/// eight compound-operator and three or four constant mutants that Java's never had.
pub(super) fn is_increment(b: &syn::ExprBinary) -> bool {
    matches!(b.op, BinOp::AddAssign(_) | BinOp::SubAssign(_)) && is_one(&b.right)
}

/// The integer literal 1 (any suffix), possibly parenthesised.
fn is_one(e: &Expr) -> bool {
    match e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<u128>().is_ok_and(|v| v == 1),
        Expr::Paren(p) => is_one(&p.expr),
        Expr::Group(g) => is_one(&g.expr),
        _ => false,
    }
}

/// The opposite of an increment's operator (`+=` ↔ `-=`), Java's `++` ↔ `--`.
pub(super) fn increment_opposite(op: &BinOp) -> BinOp {
    parse_op(if matches!(op, BinOp::AddAssign(_)) {
        "-="
    } else {
        "+="
    })
}

pub(super) fn is_compound(op: &BinOp) -> bool {
    use BinOp::*;
    matches!(
        op,
        AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitXorAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | ShlAssign(_)
            | ShrAssign(_)
    )
}

pub fn op_str(op: &BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Add(_) => "+",
        Sub(_) => "-",
        Mul(_) => "*",
        Div(_) => "/",
        Rem(_) => "%",
        And(_) => "&&",
        Or(_) => "||",
        BitXor(_) => "^",
        BitAnd(_) => "&",
        BitOr(_) => "|",
        Shl(_) => "<<",
        Shr(_) => ">>",
        Eq(_) => "==",
        Lt(_) => "<",
        Le(_) => "<=",
        Ne(_) => "!=",
        Ge(_) => ">=",
        Gt(_) => ">",
        AddAssign(_) => "+=",
        SubAssign(_) => "-=",
        MulAssign(_) => "*=",
        DivAssign(_) => "/=",
        RemAssign(_) => "%=",
        BitXorAssign(_) => "^=",
        BitAndAssign(_) => "&=",
        BitOrAssign(_) => "|=",
        ShlAssign(_) => "<<=",
        ShrAssign(_) => ">>=",
        _ => "?",
    }
}

fn parse_op(s: &str) -> BinOp {
    syn::parse_str(s).expect("an operator")
}

pub(super) fn precedence(op: &BinOp) -> u8 {
    use BinOp::*;
    match op {
        Mul(_) | Div(_) | Rem(_) => 10,
        Add(_) | Sub(_) => 9,
        Shl(_) | Shr(_) => 8,
        BitAnd(_) => 7,
        BitXor(_) => 6,
        BitOr(_) => 5,
        Eq(_) | Ne(_) | Lt(_) | Le(_) | Gt(_) | Ge(_) => 4,
        And(_) => 3,
        Or(_) => 2,
        _ => 1,
    }
}

/// The binary operators of integers (Java's `int` operators, `>>>` aside): arithmetic,
/// bitwise and shifts, all `(int, int) -> int`.
const INTEGER_OPS: &[&str] = &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"];
const INTEGER_ASSIGN_OPS: &[&str] = &["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="];

/// The operators that may replace `op` given its operands' types (Sec. 7.1: another operator
/// of the same kind and types). Every relational operator applies to ordered scalars; only
/// `==`/`!=` swap on other types (`Option`, references). Java's boolean operators of two
/// booleans replace one another: `&&`, `||`, `==`, `!=` (the eager `&`, `|`, `^` would only
/// repeat these when the operands have no effects). On integers, arithmetic, bitwise and
/// shift operators replace one another, plain or compound.
///
/// A shift does not make the compiler unify its operands' types, the other integer operators
/// do. So a shift becomes another operator only when that adds no constraint: its left
/// operand has a settled integer type and its right operand the same type or is a literal
/// (`rhs_literal`; each arm of a guarded choice has its own copy of a literal). Otherwise
/// a guarded `x << s` → `x + s` would impose `x`'s type on a literal-typed `s` in the
/// original too.
pub(super) fn operator_alternatives(
    op: &BinOp,
    lt: Option<&Ty>,
    rt: Option<&Ty>,
    rhs_literal: bool,
) -> Vec<BinOp> {
    let known: Vec<&Ty> = [lt, rt].into_iter().flatten().collect();
    let numeric = known.iter().any(|t| t.is_ordered_scalar());
    let non_numeric = !numeric && !known.is_empty();
    let integer = !known.is_empty() && known.iter().all(|t| t.is_integer());
    let boolean = known.len() == 2 && known.iter().all(|t| t.is_bool());
    let shift_unifies =
        lt.is_some_and(|l| l.is_integer() && l.is_concrete_number()) && (rhs_literal || rt == lt);
    let op_s = op_str(op);
    let group: &[&str] = match op_s {
        "+" | "-" | "*" | "/" | "%" | "&" | "|" | "^" if integer => INTEGER_OPS,
        "<<" | ">>" if integer && shift_unifies => INTEGER_OPS,
        "+" | "-" | "*" | "/" | "%" if !non_numeric => &["+", "-", "*", "/", "%"],
        "&" | "|" | "^" => &["&", "|", "^"],
        "<<" | ">>" => &["<<", ">>"],
        "==" | "!=" if numeric => &["<", "<=", ">", ">=", "==", "!="],
        "==" | "!=" if boolean => &["&&", "||", "==", "!="],
        "==" | "!=" => &["==", "!="],
        "<" | "<=" | ">" | ">=" => &["<", "<=", ">", ">=", "==", "!="],
        "&&" | "||" => &["&&", "||", "==", "!="],
        "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" if integer => INTEGER_ASSIGN_OPS,
        "<<=" | ">>=" if integer && shift_unifies => INTEGER_ASSIGN_OPS,
        "+=" | "-=" | "*=" | "/=" | "%=" if !non_numeric => &["+=", "-=", "*=", "/=", "%="],
        "&=" | "|=" | "^=" => &["&=", "|=", "^="],
        "<<=" | ">>=" => &["<<=", ">>="],
        _ => &[],
    };
    group
        .iter()
        .filter(|s| **s != op_s)
        .map(|s| parse_op(s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(op: &str, t: Option<Ty>) -> Vec<&'static str> {
        operator_alternatives(&parse_op(op), t.as_ref(), None, false)
            .iter()
            .map(op_str)
            .collect()
    }

    #[test]
    fn increments_are_java_increments() {
        let bin = |s: &str| -> syn::ExprBinary { syn::parse_str(s).expect("an expression") };
        for s in [
            "x += 1",
            "x -= 1",
            "self.size += 1",
            "i -= 1usize",
            "n += (1)",
        ] {
            assert!(is_increment(&bin(s)), "{s}");
        }
        for s in ["x += 2", "x *= 1", "x += y", "x += -1", "x += 1.0", "x + 1"] {
            assert!(!is_increment(&bin(s)), "{s}");
        }
        assert_eq!(op_str(&increment_opposite(&parse_op("+="))), "-=");
        assert_eq!(op_str(&increment_opposite(&parse_op("-="))), "+=");
    }

    #[test]
    fn operator_kinds() {
        let int = || Some(Ty::named("i64"));
        let opt = || {
            Some(Ty::Named {
                name: "Option".into(),
                args: vec![Ty::named("usize")],
            })
        };
        assert_eq!(ops("<", int()), ["<=", ">", ">=", "==", "!="]);
        assert_eq!(ops("==", int()), ["<", "<=", ">", ">=", "!="]);
        assert_eq!(ops("!=", opt()), ["=="]);
        assert_eq!(
            ops("+=", int()),
            ["-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="]
        );
        assert_eq!(ops("+=", None), ["-=", "*=", "/=", "%="]);
        assert_eq!(
            ops("+", int()),
            ["-", "*", "/", "%", "&", "|", "^", "<<", ">>"]
        );
        assert_eq!(
            ops("^", int()),
            ["+", "-", "*", "/", "%", "&", "|", "<<", ">>"]
        );
        assert_eq!(ops("*", Some(Ty::named("f64"))), ["+", "-", "/", "%"]);
        assert_eq!(ops("&", Some(Ty::named("bool"))), ["|", "^"]);
        assert_eq!(ops("&&", None), ["||", "==", "!="]);
        let boolean = Some(Ty::named("bool"));
        let both = |op: &str| -> Vec<&'static str> {
            operator_alternatives(&parse_op(op), boolean.as_ref(), boolean.as_ref(), false)
                .iter()
                .map(op_str)
                .collect()
        };
        assert_eq!(both("!="), ["&&", "||", "=="]);
        assert_eq!(ops("==", boolean.clone()), ["!="], "one side unknown");
        // Shifts: only with a settled left operand and an amount of its type or a literal.
        let shift = |l: Option<Ty>, r: Option<Ty>, lit: bool| -> usize {
            operator_alternatives(&parse_op("<<"), l.as_ref(), r.as_ref(), lit).len()
        };
        assert_eq!(shift(int(), int(), false), 9);
        assert_eq!(shift(int(), None, true), 9);
        assert_eq!(
            shift(int(), Some(Ty::IntLiteral), false),
            1,
            "a literal-typed local"
        );
        assert_eq!(shift(int(), Some(Ty::named("u32")), false), 1);
        assert_eq!(shift(Some(Ty::IntLiteral), int(), false), 1);
        assert_eq!(
            operator_alternatives(&parse_op(">>="), int().as_ref(), None, true).len(),
            9
        );
        assert!(ops("+", Some(Ty::named("String"))).is_empty());
        assert_eq!(precedence(&parse_op("+")), precedence(&parse_op("-")));
        assert_ne!(precedence(&parse_op("+")), precedence(&parse_op("*")));
    }
}
