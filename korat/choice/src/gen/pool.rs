//! Object pools, eager and delayed.
//!
//! The meaning of a pool is its eager form (UDITA's Fig. 10): `new` hands out the next unused
//! object (none left: the execution ends), `any` one of the objects handed out so far, a new
//! one, or `null` in a nullable pool. Objects are numbered in the order they are handed out,
//! so two executions never build the same structure with the objects renamed.
//!
//! Delayed, the calls only record *symbols* in program order, and a symbol becomes an object
//! at its first read ([`PoolState::force`]). What the eager form implies is a set of
//! constraints on which symbols may share an object: a `new` symbol differs from every symbol
//! before it (and from every other `new` symbol); an `any` symbol is free except that it differs
//! from the `new` symbols after it. At a read the symbol may become `null` (an `any` of a
//! nullable pool), any existing object the constraints allow, or a new object, and each of
//! these is offered only when the pool still has room for every object the constraints force
//! ([`PoolState::min_objects`]), so that every offered choice leads to at least one input.
//! Different choices give different partitions of the symbols into objects, hence different
//! structures, and every partition the eager form can make is reachable: the same inputs,
//! fewer executions (UDITA's Figs. 11–12 do the same with "levels", one per `new`).

use super::{Mode, Pruned};
use crate::trail::Trail;

/// What a symbol of a pool stands for once read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Value {
    Null,
    Object(u32),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    New,
    Any,
}

#[derive(Clone, Copy, Debug)]
struct Symbol {
    kind: Kind,
    value: Option<Value>,
}

pub(crate) struct PoolState {
    size: usize,
    nullable: bool,
    /// In program order.
    symbols: Vec<Symbol>,
    /// Objects made so far, numbered 0.. in the order they were made.
    objects: u32,
    /// `new` symbols among `symbols`.
    news: usize,
}

impl PoolState {
    pub(crate) fn new(size: usize, nullable: bool) -> PoolState {
        PoolState {
            size,
            nullable,
            symbols: Vec::new(),
            objects: 0,
            news: 0,
        }
    }

    fn push(&mut self, kind: Kind, value: Option<Value>) -> u32 {
        self.news += usize::from(kind == Kind::New);
        self.symbols.push(Symbol { kind, value });
        self.symbols.len() as u32 - 1
    }

    fn fresh(&mut self) -> Value {
        self.objects += 1;
        Value::Object(self.objects - 1)
    }

    pub(crate) fn new_obj(&mut self, mode: Mode, _trail: &mut Trail<'_>) -> Result<u32, Pruned> {
        match mode {
            Mode::Eager => {
                if self.objects as usize >= self.size {
                    return Err(Pruned);
                }
                let v = self.fresh();
                Ok(self.push(Kind::New, Some(v)))
            }
            Mode::Delayed => {
                let sym = self.push(Kind::New, None);
                if self.min_objects() > self.size {
                    return Err(Pruned);
                }
                Ok(sym)
            }
        }
    }

    pub(crate) fn any(&mut self, mode: Mode, trail: &mut Trail<'_>) -> Result<u32, Pruned> {
        match mode {
            Mode::Eager => {
                // Null first (if any), then the objects so far, then a new one (Fig. 10).
                let nulls = u32::from(self.nullable);
                let taken = trail.choose(nulls + self.objects + 1);
                let value = if taken < nulls {
                    Value::Null
                } else if taken - nulls < self.objects {
                    Value::Object(taken - nulls)
                } else if (self.objects as usize) < self.size {
                    self.fresh()
                } else {
                    return Err(Pruned);
                };
                Ok(self.push(Kind::Any, Some(value)))
            }
            // With nothing handed out yet, a non-null `any` can only be a new object: it is
            // one (Fig. 11 does the same), which keeps the model bound exact.
            Mode::Delayed if !self.nullable && self.news == 0 => self.new_obj(mode, trail),
            Mode::Delayed => Ok(self.push(Kind::Any, None)),
        }
    }

    /// The object symbol `sym` stands for (`None` for null), chosen now if still open.
    pub(crate) fn force(&mut self, sym: u32, trail: &mut Trail<'_>) -> Option<usize> {
        let at = sym as usize;
        let value = match self.symbols[at].value {
            Some(v) => v,
            None => {
                let options = self.options(at);
                assert!(
                    !options.is_empty(),
                    "a pool offered a symbol no way to be read"
                );
                let v = options[trail.choose(options.len() as u32) as usize];
                if v == Value::Object(self.objects) {
                    self.objects += 1;
                }
                self.symbols[at].value = Some(v);
                v
            }
        };
        match value {
            Value::Null => None,
            Value::Object(o) => Some(o as usize),
        }
    }

    /// What open symbol `at` may become, in a fixed order (null, existing objects, a new
    /// one), keeping only the values after which the pool still has room.
    fn options(&mut self, at: usize) -> Vec<Value> {
        let mut allowed = vec![true; self.objects as usize];
        match self.symbols[at].kind {
            // Not an object of any symbol before it, nor of another `new`.
            Kind::New => {
                for (i, s) in self.symbols.iter().enumerate() {
                    if let Some(Value::Object(o)) = s.value {
                        if i < at || s.kind == Kind::New {
                            allowed[o as usize] = false;
                        }
                    }
                }
            }
            // Not the object of a `new` after it.
            Kind::Any => {
                for s in &self.symbols[at + 1..] {
                    if let (Kind::New, Some(Value::Object(o))) = (s.kind, s.value) {
                        allowed[o as usize] = false;
                    }
                }
            }
        }
        let mut candidates = Vec::new();
        if self.nullable && self.symbols[at].kind == Kind::Any {
            candidates.push(Value::Null);
        }
        candidates.extend(
            (0..self.objects)
                .filter(|&o| allowed[o as usize])
                .map(Value::Object),
        );
        candidates.push(Value::Object(self.objects));
        candidates.retain(|&v| {
            self.symbols[at].value = Some(v);
            let fresh = u32::from(v == Value::Object(self.objects));
            self.objects += fresh;
            let fits = self.min_objects() <= self.size;
            self.objects -= fresh;
            fits
        });
        self.symbols[at].value = None;
        candidates
    }

    /// The fewest objects any completion of the symbols read so far needs: for each `new`
    /// symbol, the distinct objects before it plus the `new` symbols from it on (each differs
    /// from everything before it), and all distinct objects read.
    fn min_objects(&self) -> usize {
        let mut seen = vec![false; self.objects as usize];
        let (mut distinct, mut news_before, mut need) = (0, 0, 0);
        for s in &self.symbols {
            if s.kind == Kind::New {
                need = need.max(distinct + self.news - news_before);
                news_before += 1;
            }
            if let Some(Value::Object(o)) = s.value {
                if !std::mem::replace(&mut seen[o as usize], true) {
                    distinct += 1;
                }
            }
        }
        need.max(distinct)
    }
}
