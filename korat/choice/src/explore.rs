//! Running a generator program once per path, and what can go wrong with the program.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::gen::{Gen, Mode, Pruned, StepLimit};
use crate::trail::{Refused, Trail};

/// Bounds on one execution of a program.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Calls of the [`Gen`] one execution may make before it counts as not terminating.
    pub steps: u64,
    /// Executions an exploration may make before it stops short ([`Stats::complete`] false):
    /// a budget for the eager mode, whose paths grow much faster.
    pub paths: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            steps: 10_000_000,
            paths: u64::MAX,
        }
    }
}

/// What an exploration did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Executions that passed every assumption: the inputs.
    pub structures: u64,
    /// Executions made (UDITA's "explored paths"): the inputs and the pruned ones.
    pub explored: u64,
    /// Whether every path was explored (false: [`Limits::paths`] stopped it).
    pub complete: bool,
}

/// A generator program that misbehaved; `choices` is the path that leads there (the
/// alternative taken at each choice point), for [`replay`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgramError {
    /// The program panicked.
    Panicked {
        /// The path.
        choices: Vec<u32>,
        /// The panic's message.
        message: String,
    },
    /// One execution made more than [`Limits::steps`] calls of the [`Gen`].
    DoesNotTerminate {
        /// The path so far.
        choices: Vec<u32>,
        /// The limit it passed.
        steps: u64,
    },
    /// Run again along the same choices, the program asked a different question at choice
    /// point `at`: its result depends on something besides its choices (or, in a replay,
    /// the choices are not a path of this program).
    NotAFunctionOfItsChoices {
        /// The path.
        choices: Vec<u32>,
        /// The first choice point that differed.
        at: usize,
    },
}

impl fmt::Display for ProgramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramError::Panicked { choices, message } => {
                write!(
                    f,
                    "the generator panicked ({message}) after choices {choices:?}"
                )
            }
            ProgramError::DoesNotTerminate { choices, steps } => write!(
                f,
                "the generator made more than {steps} calls in one execution (a loop that does \
                 not end?) after choices {choices:?}"
            ),
            ProgramError::NotAFunctionOfItsChoices { choices, at } => write!(
                f,
                "the generator asked a different question at choice {at} of {choices:?} than \
                 before: it depends on something besides its choices"
            ),
        }
    }
}

impl std::error::Error for ProgramError {}

/// What one execution ended with.
enum Ending<T> {
    Input(T),
    Pruned,
}

/// Runs one execution along `gen`'s trail.
fn execute<T>(
    gen: &mut Gen<'_>,
    program: &mut impl FnMut(&mut Gen<'_>) -> Result<T, Pruned>,
    limits: Limits,
) -> Result<Ending<T>, ProgramError> {
    gen.reset();
    let ran = catch_unwind(AssertUnwindSafe(|| program(gen)));
    let choices = gen.trail.taken();
    if let Some(at) = gen.trail.misfit {
        return Err(ProgramError::NotAFunctionOfItsChoices { choices, at });
    }
    match ran {
        Ok(Ok(t)) => Ok(Ending::Input(t)),
        Ok(Err(Pruned)) => Ok(Ending::Pruned),
        Err(payload) if payload.is::<Refused>() => Ok(Ending::Pruned),
        Err(payload) if payload.is::<StepLimit>() => Err(ProgramError::DoesNotTerminate {
            choices,
            steps: limits.steps,
        }),
        Err(payload) => {
            let message = if let Some(s) = payload.downcast_ref::<&str>() {
                s.to_string()
            } else if let Some(s) = payload.downcast_ref::<String>() {
                s.clone()
            } else {
                "a panic without a message".to_string()
            };
            Err(ProgramError::Panicked { choices, message })
        }
    }
}

/// Runs `program` once for every combination of its choices, depth first, and hands each
/// input to `each` with the path that built it.
pub fn explore<T>(
    mode: Mode,
    limits: Limits,
    mut program: impl FnMut(&mut Gen<'_>) -> Result<T, Pruned>,
    mut each: impl FnMut(T, &[u32]),
) -> Result<Stats, ProgramError> {
    let mut gen = Gen::new(mode, Trail::default(), limits.steps);
    let mut stats = Stats::default();
    loop {
        stats.explored += 1;
        if let Ending::Input(t) = execute(&mut gen, &mut program, limits)? {
            stats.structures += 1;
            each(t, &gen.trail.taken());
        }
        if !gen.trail.advance() {
            stats.complete = true;
            return Ok(stats);
        }
        if stats.explored >= limits.paths {
            return Ok(stats);
        }
    }
}

/// Runs `program` along one path found by [`explore`] in the same `mode`: the input it
/// built (an input stored as its choices), or `Pruned` for a path that builds none.
pub fn replay<T>(
    mode: Mode,
    limits: Limits,
    mut program: impl FnMut(&mut Gen<'_>) -> Result<T, Pruned>,
    choices: &[u32],
) -> Result<Result<T, Pruned>, ProgramError> {
    let mut gen = Gen::new(mode, Trail::fixed(choices), limits.steps);
    let ending = execute(&mut gen, &mut program, limits)?;
    let at = gen.trail.taken().len();
    if at != choices.len() {
        return Err(ProgramError::NotAFunctionOfItsChoices {
            choices: choices.to_vec(),
            at,
        });
    }
    Ok(match ending {
        Ending::Input(t) => Ok(t),
        Ending::Pruned => Err(Pruned),
    })
}

/// Runs `program` once with its choices answered by `choose`: given a choice point's number of
/// alternatives, the one to take, or `None` to end the execution without an input (as does an
/// alternative the point does not have). A caller that searches the choices itself uses this:
/// Korat, whose candidates then hold choice paths and whose reads record which choice points
/// an execution reached (`ferastrau_sdk::generator`).
pub fn run_with<T>(
    mode: Mode,
    limits: Limits,
    mut program: impl FnMut(&mut Gen<'_>) -> Result<T, Pruned>,
    choose: &mut dyn FnMut(u32) -> Option<u32>,
) -> Result<Result<T, Pruned>, ProgramError> {
    let mut gen = Gen::new(mode, Trail::external(choose), limits.steps);
    Ok(match execute(&mut gen, &mut program, limits)? {
        Ending::Input(t) => Ok(t),
        Ending::Pruned => Err(Pruned),
    })
}
