//! The handle a generator program makes its choices through. Its pools' constraints are
//! [`pool`]'s, a submodule because nothing but this handle uses them.

use std::ops::RangeInclusive;

use crate::trail::Trail;

mod pool;

use pool::PoolState;

/// When a choice is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Where its value is first read (UDITA's delayed choice): the default.
    Delayed,
    /// Where it is asked for (UDITA's baseline on JPF): the reference the delayed mode must
    /// agree with, and the yardstick of its savings.
    Eager,
}

/// An execution that ends without an input: a failed [`Gen::assume`], an empty range, or a
/// pool with no room for another new object. Programs return it with `?`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruned;

/// An integer chosen by [`Gen::int`]; read it with [`Gen::get`]. A handle, not the value, so
/// that in delayed mode the choice waits for the first read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int(u32);

/// A boolean chosen by [`Gen::bool`]; read it with [`Gen::get_bool`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bool(Int);

/// An object pool ([`Gen::pool`]): `size` objects, and `null` when it was made nullable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pool(pub(crate) u32);

/// An object of a pool, from [`Gen::new_obj`] or [`Gen::any`]; read it with [`Gen::obj`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Obj {
    pub(crate) pool: u32,
    pub(crate) sym: u32,
}

/// An integer's cell: its value, or the range it will be chosen from at its first read.
#[derive(Clone, Copy)]
enum Cell {
    Value(i64),
    Suspended { lo: i64, span: u32 },
}

/// Raised (by unwinding, without the panic hook) when a path makes more calls than
/// [`crate::Limits::steps`]: the exploration reports it with the path's choices.
pub(crate) struct StepLimit;

/// The choices of one execution of a generator program.
pub struct Gen<'a> {
    mode: Mode,
    pub(crate) trail: Trail<'a>,
    cells: Vec<Cell>,
    pools: Vec<PoolState>,
    steps: u64,
    step_limit: u64,
}

impl<'a> Gen<'a> {
    pub(crate) fn new(mode: Mode, trail: Trail<'a>, step_limit: u64) -> Gen<'a> {
        Gen {
            mode,
            trail,
            cells: Vec::new(),
            pools: Vec::new(),
            steps: 0,
            step_limit,
        }
    }

    /// Ready for the next execution: the trail says which path it takes.
    pub(crate) fn reset(&mut self) {
        self.cells.clear();
        self.pools.clear();
        self.steps = 0;
    }

    /// The mode this exploration runs in.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    fn step(&mut self) {
        self.steps += 1;
        if self.steps > self.step_limit {
            std::panic::resume_unwind(Box::new(StepLimit));
        }
    }

    /// Any integer of `range` (UDITA's `getInt(lo, hi)`). An empty range ends the execution.
    pub fn int(&mut self, range: RangeInclusive<i64>) -> Result<Int, Pruned> {
        self.step();
        let (lo, hi) = range.into_inner();
        if hi < lo {
            return Err(Pruned);
        }
        let span = u32::try_from(hi - lo + 1).expect("a choice among more than 2^32 values");
        let cell = match self.mode {
            Mode::Delayed => Cell::Suspended { lo, span },
            Mode::Eager => Cell::Value(lo + i64::from(self.trail.choose(span))),
        };
        self.cells.push(cell);
        Ok(Int(self.cells.len() as u32 - 1))
    }

    /// The value of `x`, chosen now if this is its first read.
    pub fn get(&mut self, x: Int) -> i64 {
        self.step();
        let cell = &mut self.cells[x.0 as usize];
        match *cell {
            Cell::Value(v) => v,
            Cell::Suspended { lo, span } => {
                let v = lo + i64::from(self.trail.choose(span));
                self.cells[x.0 as usize] = Cell::Value(v);
                v
            }
        }
    }

    /// An integer of `range`, chosen now (a size or a count the program branches on at once).
    pub fn pick(&mut self, range: RangeInclusive<i64>) -> Result<i64, Pruned> {
        let x = self.int(range)?;
        Ok(self.get(x))
    }

    /// Either boolean (UDITA's `getBoolean()`).
    pub fn bool(&mut self) -> Bool {
        Bool(self.int(0..=1).expect("a nonempty range"))
    }

    /// The value of `b`, chosen now if this is its first read.
    pub fn get_bool(&mut self, b: Bool) -> bool {
        self.get(b.0) == 1
    }

    /// Ends the execution unless `condition` holds.
    pub fn assume(&mut self, condition: bool) -> Result<(), Pruned> {
        self.step();
        if condition {
            Ok(())
        } else {
            Err(Pruned)
        }
    }

    /// A pool of `size` objects, with `null` among [`Gen::any`]'s results when `nullable`.
    pub fn pool(&mut self, size: usize, nullable: bool) -> Pool {
        self.step();
        self.pools.push(PoolState::new(size, nullable));
        Pool(self.pools.len() as u32 - 1)
    }

    /// An object of `pool` that no earlier [`Gen::new_obj`] or [`Gen::any`] of the pool
    /// returned (UDITA's `getNew`); never `null`. Ends the execution when the pool has no
    /// room for it.
    pub fn new_obj(&mut self, pool: Pool) -> Result<Obj, Pruned> {
        self.step();
        let (mode, trail) = (self.mode, &mut self.trail);
        let sym = self.pools[pool.0 as usize].new_obj(mode, trail)?;
        Ok(Obj { pool: pool.0, sym })
    }

    /// Any object of `pool` — one returned before, a new one, or `null` in a nullable pool
    /// (UDITA's `getAny`). Only eager mode can end the execution here (a new object that does
    /// not fit); delayed mode decides at the first read.
    pub fn any(&mut self, pool: Pool) -> Result<Obj, Pruned> {
        self.step();
        let (mode, trail) = (self.mode, &mut self.trail);
        let sym = self.pools[pool.0 as usize].any(mode, trail)?;
        Ok(Obj { pool: pool.0, sym })
    }

    /// Which object `o` is: its number in its pool (objects are numbered in the order they
    /// are first read, which is what makes isomorphic structures one), or `None` for `null`.
    pub fn obj(&mut self, o: Obj) -> Option<usize> {
        self.step();
        self.pools[o.pool as usize].force(o.sym, &mut self.trail)
    }
}
