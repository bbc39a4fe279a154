//! The families of mutation operators: what the mutator's catalog, the reports and the command
//! line (`subsets --families`) name a mutant's kind by. One type for all of them, here because
//! the mutator and the artifacts both depend on this crate and not on each other.

use serde::{Deserialize, Serialize};

/// The families of mutation operators: the paper's three (Sec. 7.1) and integer constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// A binary or compound-assignment operator to another of the same kind.
    Operator,
    /// A local, parameter or field read to another of the same type.
    Variable,
    /// A call of a crate function or method to another with a compatible signature.
    Call,
    /// An integer constant operand to its neighbours (`c+1`, `c−1`) or to a variable of its
    /// type (Mothra's constant operators; the paper notes new operators are easy to add).
    Constant,
}

impl Family {
    /// Every family, in the order catalogs and reports list them.
    pub const ALL: [Family; 4] = [
        Family::Operator,
        Family::Variable,
        Family::Call,
        Family::Constant,
    ];

    /// The family's name in files and on the command line (`operator`).
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Operator => "operator",
            Family::Variable => "variable",
            Family::Call => "call",
            Family::Constant => "constant",
        }
    }
}

impl std::str::FromStr for Family {
    type Err = String;

    /// A family by its name (`operator`, `variable`, `call`, `constant`).
    fn from_str(s: &str) -> Result<Family, String> {
        Family::ALL
            .into_iter()
            .find(|f| f.as_str() == s)
            .ok_or_else(|| format!("{s:?} is not a family (operator, variable, call, constant)"))
    }
}
