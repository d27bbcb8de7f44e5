// SPDX-License-Identifier: MIT
// The parsed form of a C litmus test (herd7's C dialect for the Linux-kernel memory model):
// locations, processes with their registers and statements, the final condition and the
// `Result:` annotation. Flat, index-linked vectors: immutable after parsing, interpreted without
// allocating. Engine-free and dependency-free (the fuzz target builds it alone).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace oc::litmus {

/// A value held by a location or register (64-bit, as the engine stores it).
using Value = std::int64_t;

/// The value of a pointer to location `loc` (numbered in order of declaration from 0):
/// address_base + loc * address_stride, which traces show as (loc + 1) * 10^12. Constants in a
/// test must stay below address_limit in magnitude, so an address never collides with a
/// constant, and pointer arithmetic off one location (`y + r2`) never lands on another one: herd
/// makes `y+-1` a location of its own, which the interpreter runs as a computed location
/// (Program::computes_addresses).
inline constexpr Value address_base = 1'000'000'000'000;
inline constexpr Value address_stride = 1'000'000'000'000;
inline constexpr Value address_limit = Value{1} << 32;
/// The address of location `loc`.
constexpr Value address_of(std::size_t loc) { return address_base + static_cast<Value>(loc) * address_stride; }
/// The location whose address is `v`, or -1 when `v` is not the address of one of the first
/// `count` locations.
constexpr std::int64_t location_at(Value v, std::size_t count) {
    if (v < address_base || (v - address_base) % address_stride != 0) return -1;
    const Value loc = (v - address_base) / address_stride;
    return loc < static_cast<Value>(count) ? loc : -1;
}
/// Computed locations: what a test's pointer arithmetic reaches besides its own locations (herd:
/// `y+-1`, a location of its own that starts at 0). Up to this many distinct addresses per
/// execution (each address always takes the same one: address mod this count).
inline constexpr unsigned max_computed_locations = 4;

/// Limits that keep the interpreter allocation-free and its recursion shallow (the engine runs
/// every thread on a 64 KiB fibre stack).
inline constexpr unsigned max_processes = 32;  // the graph engine runs up to 32 threads (max_threads); Relacy 6
/// Every array element and struct field is a location of its own (docs/litmus.md, "Structs and
/// arrays"), so a test with a few struct nodes or arrays needs more than the 32 a flat test
/// does; each location is one slot of an execution's storage (Instance), built in place. The
/// engines take up to 64 locations per execution (explore::max_locations: bit-mask footprints),
/// which must also hold the computed locations and the words of locks, RCU and SRCU: 48 leaves
/// them 16.
inline constexpr unsigned max_test_locations = 48;
/// Registers of all processes together, parameters and the registers of inlined calls included
/// (the interpreter keeps them in one fixed array, so a run allocates nothing).
inline constexpr unsigned max_registers = 512;
/// Primitive calls and plain accesses written in one process, inlined calls' included (an
/// access site is numbered in 16 bits). How many accesses a run makes is not limited; a
/// dependency on a thread's read at po index 64 or later is (checker/model/primitives.hpp).
inline constexpr unsigned max_accesses = 65535;
inline constexpr unsigned max_nesting = 24;    ///< expression trees, nested statements
inline constexpr unsigned max_condition_nesting = 64;  ///< the condition's tree (a /\ b /\ ... counts each /\)
inline constexpr unsigned max_parse_depth = 256;  ///< the parser's own recursion (parentheses...)
inline constexpr unsigned max_srcu_structs = 4;    ///< srcu_struct locations per test
inline constexpr unsigned max_srcu_sections = 32;  ///< srcu_read_lock() sites per srcu_struct (one reader word each)
/// Iterations a loop that is not an await runs before its execution is cut (`--unroll N`;
/// herd7's -unroll default is 2 too).
inline constexpr unsigned default_unroll = 2;
inline constexpr unsigned max_unroll = 1000;
/// Loops nested in one another (the analysis walks each loop to a fixed point, nested ones once per
/// pass of the enclosing one).
inline constexpr unsigned max_loop_nesting = 4;

struct SourcePos {
    std::uint32_t line = 0;
    std::uint32_t column = 0;
};

/// A parse or semantic error: `file:line:column: error: message`.
class LitmusError : public std::runtime_error {
public:
    LitmusError(std::string file, SourcePos pos, std::string message)
        : std::runtime_error(file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) +
                             ": error: " + message),
          file_(std::move(file)), pos_(pos), message_(std::move(message)) {}
    const std::string& file() const { return file_; }
    SourcePos pos() const { return pos_; }
    const std::string& message() const { return message_; }

private:
    std::string file_;
    SourcePos pos_;
    std::string message_;
};

// ---- locations and registers ----------------------------------------------------------------

/// Mutex: a `struct mutex`; StaticKey: a `struct static_key_false` (or `_true`), the enable count.
enum class LocType : std::uint8_t { Int, Atomic, Lock, Srcu, Mutex, StaticKey };

struct Location {
    std::string name;
    LocType type = LocType::Int;
    Value init = 0;
    SourcePos declared;
    /// The first field of an instance of struct type `struct_type` (Program::structs), or -1.
    std::int16_t struct_type = -1;
    /// An element's location (or one of its fields): its array in Program::arrays, or -1.
    std::int16_t array = -1;
    /// How a value equal to this location's address is printed, if not by its name: the
    /// array or struct it starts (`a` for a[0], as herd prints it; `n1` for n1.val).
    std::string address_name;
    // Filled by the analysis:
    bool plain = false;     ///< accessed plainly: a Plain<long> (race-checked) in the race run
    bool escapes = false;   ///< its address is used as a value (so dynamic accesses may reach it)
    bool only_plain = false;  ///< plain, and no marked access may reach it (not even a READ_ONCE)
    std::uint16_t sections = 0;  ///< a srcu_struct: its srcu_read_lock() sites (one reader word each)
};

struct Register {
    std::string name;        ///< "r0", or the parameter's name
    std::string full_name;   ///< "0:r0": the observable's name
    bool is_param = false;   ///< parameters hold the address of the location of the same name
    std::uint16_t loc = 0;   ///< for parameters: that location
    Value init = 0;
    SourcePos declared;
    bool assigned = false;   ///< some statement assigns it (so it is no fixed location pointer)
    bool implicit = false;   ///< used without a declaration, as herd allows (assigned, or set in the initial state)
};

// ---- primitives -------------------------------------------------------------------------------

/// Every supported kernel primitive (docs/litmus.md lists their mapping).
enum class Prim : std::uint8_t {
    // loads
    ReadOnce, LoadAcquire, RcuDereference, AtomicRead, AtomicReadAcquire,
    // stores
    WriteOnce, StoreRelease, RcuAssignPointer, StoreMb, AtomicSet, AtomicSetRelease,
    // fences
    Mb, Rmb, Wmb, MbBeforeAtomic, MbAfterAtomic, MbAfterSpinlock, Barrier, MbAfterUnlockLock,
    MbAfterSrcuReadUnlock,
    // void RMWs
    AtomicAdd, AtomicSub, AtomicInc, AtomicDec, AtomicAnd, AtomicOr, AtomicXor, AtomicAndnot,
    SetBit, ClearBit, TestAndSetBit, TestAndClearBit,
    // value-returning RMWs (each with an ordering: Full, Relaxed, Acquire, Release)
    AddReturn, SubReturn, IncReturn, DecReturn, FetchAdd, FetchSub, FetchInc, FetchDec, FetchAnd, FetchOr,
    FetchXor, FetchAndnot, AtomicXchg, Xchg, AtomicCmpxchg, Cmpxchg,
    SubAndTest, DecAndTest, IncAndTest, AddNegative,
    // conditional RMW (fully ordered when it adds, a relaxed read when it does not)
    AddUnless,
    // locks
    SpinLock, SpinUnlock, SpinTrylock, SpinIsLocked,
    // RCU
    RcuReadLock, RcuReadUnlock, SynchronizeRcu,
    // SRCU, on a srcu_struct location (srcu_down_read/srcu_up_read are SrcuReadLock/SrcuReadUnlock)
    SrcuReadLock, SrcuReadUnlock, SynchronizeSrcu,
    // Kernel idioms beyond linux-kernel.def (docs/litmus.md, "Kernel idioms"): mutexes, static
    // keys (static_branch_likely/unlikely are StaticBranch), try_cmpxchg (updates its old value,
    // a register passed as &old), assertions
    MutexLock, MutexUnlock, MutexTrylock, MutexIsLocked,
    StaticBranch, StaticBranchInc, StaticBranchDec, StaticBranchEnable, StaticBranchDisable,
    TryCmpxchg, BugOn, WarnOn,
};

enum class Order : std::uint8_t { Full, Relaxed, Acquire, Release };

/// How an argument is written: `*x` (a location), `x` (a pointer to one), a value, or `&r` (a
/// register the primitive may write: try_cmpxchg's old value).
enum class ArgKind : std::uint8_t { Lvalue, Pointer, Value, RegRef };

// ---- expressions and statements --------------------------------------------------------------

enum class ExprKind : std::uint8_t { Const, Reg, Unary, Binary, Ternary, Deref, Call };
enum class UnOp : std::uint8_t { Neg, Not, BitNot };
enum class BinOp : std::uint8_t {
    Mul, Div, Mod, Add, Sub, Shl, Shr, Lt, Le, Gt, Ge, Eq, Ne, BitAnd, BitXor, BitOr, LogAnd, LogOr,
    /// Address arithmetic written `a[i]`, `&a[i]`, `a + i` on an array, and `p->f`, `s.f`
    /// (docs/litmus.md, "Structs and arrays"); checked when run, never wrapping onto another
    /// location. Index: the address of element (element of a) + b of the array a points into
    /// (Program::arrays; `c` its stride in locations). Field: the address of field `value`
    /// (an offset in locations) of the struct a points to, of struct type `c`
    /// (Location::struct_type; `reg`: the field's index in StructType::fields).
    Index, Field,
};

struct Expr {
    ExprKind kind = ExprKind::Const;
    SourcePos pos;
    Value value = 0;         ///< Const
    std::uint16_t reg = 0;   ///< Reg: index into the process's registers
    std::uint8_t op = 0;     ///< UnOp or BinOp
    std::int32_t a = -1, b = -1, c = -1;  ///< operands; Deref: a = the address; Call: a = call index
};

/// One shared-memory access site: a primitive call or a plain access (`*x`, `*x = v`).
struct Access {
    Prim prim = Prim::ReadOnce;  ///< unused for plain accesses
    bool plain = false;          ///< a plain C read or write
    bool plain_write = false;
    Order order = Order::Full;
    std::string name;            ///< as written: "READ_ONCE", "atomic_inc_return_acquire", "*x"
    SourcePos pos;
    std::int32_t addr = -1;          ///< the address expression (the `x` of `*x`); -1 for fences, RCU
    std::int32_t vals[2] = {-1, -1};  ///< value operands (stored value; cmpxchg old, new; add amount)
    std::int32_t out_reg = -1;   ///< try_cmpxchg: the register of `&old`, written when it fails
    std::uint16_t process = 0;
    std::uint16_t site = 0;      ///< index among the process's accesses
    /// srcu_read_lock()/srcu_down_read() and srcu_read_unlock()/srcu_up_read(): set by the front
    /// end when the macro table maps the SRCU primitive to `__load{srcu-lock}`/`__store{srcu-unlock}`
    /// (herd's lkmmv2 linux-kernel.def). Under LKMM the lock is then a marked read of the
    /// srcu_struct's word and the unlock a marked write of its value to it (kernel_srcu.hpp).
    bool srcu_access = false;
    // Filled by the analysis:
    std::int32_t target = -1;    ///< the location when the address is a fixed parameter, else -1
    bool dep_head = false;       ///< a relaxed read whose value feeds a later address: acquire
    std::uint16_t section = 0;   ///< srcu_read_lock(): its reader word in the srcu_struct (target)
    std::int32_t srcu_lock = -1; ///< srcu_read_unlock(): the srcu_read_lock() access whose index it is given
};

/// A marked access that makes one read event and nothing else: READ_ONCE(), smp_load_acquire(),
/// rcu_dereference(), atomic_read(), atomic_read_acquire().
inline bool is_marked_load(const Access& a) {
    if (a.plain) return false;
    switch (a.prim) {
    case Prim::ReadOnce:
    case Prim::LoadAcquire:
    case Prim::RcuDereference:
    case Prim::AtomicRead:
    case Prim::AtomicReadAcquire: return true;
    default: return false;
    }
}

/// Whether value operand `i` of `a` is written (a data dependency of its write): every value
/// operand but cmpxchg's expected value (herd: no dependency; S+wmb+cmpxchg-expected) and
/// atomic_add_unless()'s `u`, its counterpart (unobservable in herd: atomic_add_unless() is
/// fully ordered when it writes).
inline bool written_operand(const Access& a, int i) {
    if (a.plain) return true;
    switch (a.prim) {
    case Prim::Cmpxchg:
    case Prim::AtomicCmpxchg:
    case Prim::TryCmpxchg: return i == 1;
    case Prim::AddUnless: return i == 0;
    default: return true;
    }
}

/// Loop: `while (c) s`, `do s while (c);` and the loop of `for (init; c; step) s` (a Block of
/// the init statements and the Loop). Inline: the body of a helper function inlined at one call
/// (docs/litmus.md, "Functions"): its Return statements end it (a Return assigns the value to
/// the call's result register `reg`).
enum class StmtKind : std::uint8_t { Expr, Assign, Store, If, Block, Loop, Break, Continue, Return, Inline };

struct Stmt {
    StmtKind kind = StmtKind::Expr;
    SourcePos pos;
    std::uint16_t reg = 0;        ///< Assign: destination register
    std::int32_t expr = -1;       ///< Expr/Assign: the value; Store: the value; If, Loop: the condition (Loop: -1, none); Return: the value (-1: none)
    std::int32_t access = -1;     ///< Store: its access site
    std::int32_t then_stmt = -1;  ///< If; Loop: the body; Inline: the function's body (a Block)
    std::int32_t else_stmt = -1;  ///< If (-1: none); Loop: the step of a for (-1: none)
    std::uint32_t first = 0, count = 0;  ///< Block: children in Program::block_items
    /// Loop: what the calls to helper functions in the condition need (argument bindings and
    /// inlined bodies, a Block), run before each test of the condition (-1: none).
    std::int32_t prelude = -1;
    bool post_test = false;       ///< Loop: do ... while: the condition is tested after the body
    /// If, Loop: a `return` of the enclosing function is under it, so what follows it in the
    /// function runs only if its conditions did not lead to that return: it stays ctrl-dependent
    /// on them to the end of the function, as if the function's rest were written in the branch
    /// (docs/litmus.md, "Functions").
    bool may_return = false;
    bool returns_value = false;   ///< Inline: the function returns a value (ending without `return` is an error)
    /// Loop, filled by the analysis: an *await* (docs/litmus.md, "Loops"): an iteration that
    /// fails has no effect the next one or another thread depends on, so it runs as the C++
    /// models' spin loops (spin_iteration(), spin_yield()) without an unroll bound.
    bool await = false;
};

struct Process {
    std::string name;  ///< "P0"
    SourcePos pos;
    std::vector<Register> regs;
    std::int32_t body = -1;  ///< a Block statement
};

// ---- the final condition ------------------------------------------------------------------------

/// A value in the condition: a constant, a register's or location's final value, or an address.
struct Operand {
    enum class Kind : std::uint8_t { Const, Reg, Loc, Address } kind = Kind::Const;
    Value value = 0;
    std::uint16_t proc = 0, reg = 0, loc = 0;
    SourcePos pos;
    friend bool operator==(const Operand& a, const Operand& b) {
        return a.kind == b.kind && a.value == b.value && a.proc == b.proc && a.reg == b.reg && a.loc == b.loc;
    }
};

enum class PropKind : std::uint8_t { True, False, Eq, Ne, Not, And, Or, Implies };

struct Prop {
    PropKind kind = PropKind::True;
    SourcePos pos;
    Operand lhs, rhs;              ///< Eq, Ne
    std::int32_t a = -1, b = -1;   ///< Not (a), And/Or/Implies (a, b)
};

enum class Quantifier : std::uint8_t { Exists, NotExists, Forall };

/// The expected result of a test (the `Result:` annotation and ordercheck's own annotations).
/// AssertFailed and DataRace are ordercheck's verdict kinds (not herd's): some execution fires a
/// BUG_ON()/WARN_ON(), or has a data race, and the run stops there (docs/litmus.md, "Kernel idioms").
enum class Outcome : std::uint8_t { Always, Sometimes, Never, Maybe, Deadlock, AssertFailed, DataRace };

struct Expected {
    Outcome outcome = Outcome::Never;
    bool datarace = false;
    SourcePos pos;
    std::string note;  ///< the rest of the line (ordercheck annotations: why)
};

/// A `key=value` line between the test name and the initial state, as diy7 writes them
/// (`Cycle=Rfe PodRR Fre PodWW`, `Relax=...`, `Generator=diy7 (version 7.56)`): kept, never run.
struct Metadata {
    std::string key;
    std::string value;
    SourcePos pos;
};

/// A struct type declared in the initial state: its fields, each one location in an instance.
struct StructType {
    struct Field {
        std::string name;
        std::int16_t points_to = -1;  ///< a `struct T *` field: T's index, else -1
        std::uint8_t stars = 0;       ///< pointer depth (0: int, long, atomic_t)
        LocType type = LocType::Int;
    };
    std::string name;
    SourcePos pos;
    std::vector<Field> fields;
};

/// An array in the initial state: `count` elements of `stride` locations each (1, or the
/// fields of a struct element) from location `first`.
struct ArrayInfo {
    std::string name;
    std::uint16_t first = 0, count = 0, stride = 1;
};

struct Program {
    std::string file;
    std::string name;  ///< the test name after `C`
    std::string doc;   ///< the quoted doc string after the name line ("" if none; several are joined by '\n')
    std::vector<Metadata> metadata;  ///< herd's info lines, in order
    std::vector<Location> locations;
    std::vector<StructType> structs;
    std::vector<ArrayInfo> arrays;
    std::vector<Process> processes;
    std::vector<Expr> exprs;
    std::vector<Stmt> stmts;
    std::vector<std::int32_t> block_items;
    std::vector<Access> accesses;
    std::vector<Prop> props;
    // condition
    Quantifier quantifier = Quantifier::Exists;
    std::int32_t condition = -1;
    std::int32_t filter = -1;               ///< -1: none
    std::vector<Operand> locations_clause;  ///< `locations [...]`
    std::vector<Operand> observed;          ///< what a state shows: locations clause, then the condition's
    /// Some access's address is computed by arithmetic or comes from a read (not a parameter
    /// or a register holding one): the run declares the computed locations too.
    bool computes_addresses = false;
    bool uses_rcu = false;
    bool uses_srcu = false;
    /// Why the test is exact only under LKMM ("" when it is exact under every model): set by the
    /// analysis for a location accessed plainly and with marked accesses from several processes,
    /// which the C++11 mapping would run as racing plain accesses (VariantDef::kernel_model_only).
    std::string kernel_model_only;
    // annotations found in comments
    std::optional<Expected> result;         ///< `Result: Never [DATARACE]`
    std::optional<Expected> mapping;        ///< `ordercheck-mapping: ...`: the C++11 mapping differs from LKMM
    std::optional<Expected> engine;         ///< `ordercheck-engine: ...`: the engine cannot produce RC11's answer
};

std::string_view to_string(Outcome o);
std::string_view to_string(Quantifier q);

}  // namespace oc::litmus
