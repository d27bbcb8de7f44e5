// SPDX-License-Identifier: MIT
// The compiled operations of a cat model (cat_compile.hpp), run on one graph.
#include "checker/memory_model/cat/cat_compile.hpp"

#include <algorithm>
#include <bit>

namespace oc::cat {


namespace {

/// The greatest marking of p's operations that `holds` keeps: an operation stays marked while
/// holds(o, op, slot) does, where op(x) says whether operation x is marked (an absent operand,
/// -1, is) and slot[s] whether `let` slot s is. A slot is marked while every binding of it is
/// (its value is known only at the `let`, after the operations that read it), a `let rec` slot
/// never: every mark starts set and is taken back until none changes.
template <class Holds>
std::vector<bool> greatest_marking(const Program& p, Holds holds) {
    std::vector<bool> mark(p.ops.size(), true), slot(p.slot_ty.size(), true);
    for (const Op& o : p.ops)
        if (o.k == Op::K::Rec)
            for (const int s : o.slots) slot[static_cast<std::size_t>(s)] = false;
    const auto op = [&](int x) { return x < 0 || mark[static_cast<std::size_t>(x)]; };
    for (bool changed = true; changed;) {
        changed = false;
        for (std::size_t k = 0; k < p.ops.size(); ++k) {
            const Op& o = p.ops[k];
            if (o.k == Op::K::Let)
                for (std::size_t j = 0; j < o.slots.size(); ++j) {
                    const auto s = static_cast<std::size_t>(o.slots[j]);
                    if (slot[s] && !op(o.binds[j])) {
                        slot[s] = false;
                        changed = true;
                    }
                }
            if (mark[k] && !holds(o, op, slot)) {
                mark[k] = false;
                changed = true;
            }
        }
    }
    return mark;
}

}  // namespace

/// Marks the operations computed once per graph (Op::once): those that read no `let rec` slot,
/// directly or through a `let` slot.
void mark_once(Program& p) {
    const std::vector<bool> fixed = greatest_marking(p, [](const Op& o, const auto& op, const std::vector<bool>& slot) {
        if (o.k == Op::K::Local) return static_cast<bool>(slot[o.ref]);
        if (o.k == Op::K::Rec) return false;
        return o.k == Op::K::Top || (op(o.a) && op(o.b));
    });
    for (std::size_t k = 0; k < p.ops.size(); ++k) {
        Op& o = p.ops[k];
        const bool own_buffer = o.k != Op::K::Top && o.k != Op::K::Local && o.k != Op::K::Let && o.k != Op::K::Rec;
        o.once = own_buffer && fixed[k];
    }
}

void finish(Program& p) {
    mark_once(p);
    // a Top operation of a compiled binding evaluates to that binding's operation
    const auto target = [&](int x) {
        while (x >= 0) {
            const Op& o = p.ops[static_cast<std::size_t>(x)];
            if (o.k != Op::K::Top || o.ref >= p.code.size() || p.code[o.ref] < 0) break;
            x = p.code[o.ref];
        }
        return x;
    };
    for (Op& o : p.ops) {
        if (o.k == Op::K::Top) continue;  // evaluated by the compiled binding it names
        o.a = target(o.a);
        o.b = target(o.b);
        for (int& b : o.binds) b = target(b);
    }
    for (int& c : p.checks) c = target(c);
    for (Step& s : p.steps) {
        s.a = target(s.a);
        s.b = target(s.b);
    }
    for (auto& [seq, op] : p.rec) op = target(op);
    // which values depend on the graph's events alone
    const auto events_only_top = [&](std::uint32_t seq) { return seq < p.events_only_top.size() && p.events_only_top[seq] != 0; };
    const std::vector<bool> ev = greatest_marking(p, [&](const Op& o, const auto& op, const std::vector<bool>& slot) {
        switch (o.k) {
        case Op::K::Top: return events_only_top(o.ref) || (o.ref < p.code.size() && p.code[o.ref] >= 0 && op(p.code[o.ref]));
        case Op::K::Local: return static_cast<bool>(slot[o.ref]);
        case Op::K::Rec:
        case Op::K::DiffValues: return false;
        case Op::K::Complement: return op(o.a) && (o.ty != Ty::Set || events_only_top(o.ref));  // within the universe `ref`
        default: return op(o.a) && op(o.b);
        }
    });
    p.hot.clear();
    for (std::size_t k = 0; k < p.ops.size(); ++k) {
        const Op& o = p.ops[k];
        p.hot.push_back(HotOp{o.k, o.ty, o.once, o.once && ev[k], o.a, o.b, o.ref});
    }
}

void Buffers::use_events(const Program& p, const std::vector<std::uint64_t>& key) {
    constexpr std::size_t entries = 64;
    std::uint64_t h = key.size();
    for (const std::uint64_t w : key) h = (std::rotl(h, 23) ^ w) * 0x9e3779b97f4a7c15ULL;  // the full key is compared on a match
    ++uses;
    EventsEntry* oldest = nullptr;
    for (EventsEntry& e : by_events) {
        if (e.hash == h && e.key == key) {
            e.used = uses;
            events = &e;
            return;
        }
        if (oldest == nullptr || e.used < oldest->used) oldest = &e;
    }
    if (by_events.size() < entries) {
        by_events.emplace_back();
        oldest = &by_events.back();
    }
    EventsEntry& e = *oldest;
    e.key = key;
    e.hash = h;
    e.used = uses;
    e.done.assign(p.ops.size(), 0);
    if (e.rels.size() != p.ops.size()) e.rels.assign(p.ops.size(), BitRel(0));
    if (e.sets.size() != p.ops.size()) e.sets.assign(p.ops.size(), lkmm::NodeSet{});
    events = &e;
}

const BitRel& Runner::events_rel(int op) {
    const auto k = static_cast<std::size_t>(op);
    EventsEntry& e = *buf_.events;
    if (e.done[k] == 1) return e.rels[k];
    if (e.done[k] == 2) return buf_.zero;
    const BitRel& r = compute_rel(op);
    if (&r == &buf_.zero) {
        e.done[k] = 2;
        return r;
    }
    if (&r != &buf_.rels[k]) return r;
    std::swap(e.rels[k], buf_.rels[k]);  // the entry keeps the value; the operation's buffer is reshaped when next used
    e.done[k] = 1;
    return e.rels[k];
}

const lkmm::NodeSet& Runner::events_set(int op) {
    const auto k = static_cast<std::size_t>(op);
    EventsEntry& e = *buf_.events;
    if (e.done[k] == 1) return e.sets[k];
    const lkmm::NodeSet& s = compute_set(op);
    if (&s != &buf_.sets[k]) return s;
    std::swap(e.sets[k], buf_.sets[k]);
    e.done[k] = 1;
    return e.sets[k];
}

void Buffers::shape(const Program& p) {
    if (program == p.id) return;
    const std::size_t total = p.ops.size() + p.slot_ty.size();
    program = p.id;
    rels.assign(total, BitRel(0));
    sets.assign(total, lkmm::NodeSet{});
    slot_rel.assign(p.slot_ty.size(), nullptr);
    slot_set.assign(p.slot_ty.size(), nullptr);
    done.assign(p.ops.size(), 0);
    done_zero.assign(p.ops.size(), 0);
    by_events.clear();
    events = nullptr;
    graph = 1;  // no operation is done for it (done holds 0)
}

Runner::Runner(const Program& p, Buffers& buf, std::size_t n, const std::vector<Value>& values, TopValues& top)
    : p_(p), buf_(buf), n_(n), values_(values), top_(top) {
    buf.shape(p);
    if (buf.zero.size() != n) buf.zero.reshape(n);
}

void Runner::bind(const Op& o) {
    for (std::size_t k = 0; k < o.slots.size(); ++k) {
        const auto slot = static_cast<std::size_t>(o.slots[k]);
        if (p_.slot_ty[slot] == Ty::Rel) buf_.slot_rel[slot] = &rel(o.binds[k]);
        else buf_.slot_set[slot] = &set(o.binds[k]);
    }
}

void Runner::rec(int op) {
    const Op& o = p_.ops[static_cast<std::size_t>(op)];
    const int own = static_cast<int>(p_.ops.size());
    for (const int slot : o.slots) {
        const auto s = static_cast<std::size_t>(slot);
        if (p_.slot_ty[s] == Ty::Rel) {
            BitRel& b = rbuf(own + slot);
            b.clear();
            buf_.slot_rel[s] = &b;
        } else if (p_.slot_ty[s] == Ty::Set) {
            lkmm::NodeSet& b = sbuf(own + slot);
            std::fill(b.begin(), b.end(), 0);
            buf_.slot_set[s] = &b;
        }
    }
    for (std::size_t round = 0;; ++round) {
        if (round > 10 * n_ * n_ + 100) throw CatError(o.pos, "expected the let rec to reach a fixed point, found none");
        bool changed = false;
        for (std::size_t k = 0; k < o.slots.size(); ++k) {
            if (o.binds[k] < 0) continue;
            const int slot = o.slots[k];
            if (p_.slot_ty[static_cast<std::size_t>(slot)] == Ty::Rel) {
                const BitRel& v = rel(o.binds[k]);
                BitRel& b = buf_.rels[static_cast<std::size_t>(own + slot)];
                if (!(v == b)) {
                    b = v;
                    changed = true;
                }
            } else {
                const lkmm::NodeSet& v = set(o.binds[k]);
                lkmm::NodeSet& b = buf_.sets[static_cast<std::size_t>(own + slot)];
                if (v != b) {
                    b = v;
                    changed = true;
                }
            }
        }
        if (!changed) return;
    }
}

const BitRel& Runner::compute_rel(int op) {
    const HotOp& o = p_.hot[static_cast<std::size_t>(op)];
    using K = Op::K;
    switch (o.k) {
    case K::Top:
        // a compiled binding's value is its operation's (computed once per graph): the
        // evaluator's scope would hold a copy of it
        if (o.ref < p_.code.size() && p_.code[o.ref] >= 0) return rel(p_.code[o.ref]);
        if (const BitRel* r = top_.rel(o.ref, pos(op))) return *r;
        [[fallthrough]];
    case K::Zero: return cleared(op);
    case K::Local: return *buf_.slot_rel[o.ref];
    case K::Union:
    case K::Inter:
    case K::Diff: {
        const BitRel& a = rel(o.a);
        if (o.k != K::Union && empty(a)) return cleared(op);  // b is not needed (nor evaluated)
        const BitRel& b = rel(o.b);
        BitRel& out = rbuf(op);
        const std::uint64_t *x = a.row(0), *y = b.row(0);
        std::uint64_t* d = out.row(0);
        const std::size_t words = n_ * out.words();
        if (o.k == K::Union)
            for (std::size_t k = 0; k < words; ++k) d[k] = x[k] | y[k];
        else if (o.k == K::Inter)
            for (std::size_t k = 0; k < words; ++k) d[k] = x[k] & y[k];
        else
            for (std::size_t k = 0; k < words; ++k) d[k] = x[k] & ~y[k];
        return out;
    }
    case K::Seq: {
        // an empty left side: the right one (rcu-link's closures, under no RCU) is not evaluated
        const BitRel& a = rel(o.a);
        if (empty(a)) return cleared(op);
        const BitRel& b = rel(o.b);
        BitRel& out = rbuf(op);
        a.compose_into(b, out);
        return out;
    }
    case K::DomRestrict: {
        const lkmm::NodeSet& s = set(o.a);
        if (std::all_of(s.begin(), s.end(), [](std::uint64_t w) { return w == 0; })) return cleared(op);
        const BitRel& r = rel(o.b);
        BitRel& out = rbuf(op);
        if (out.words() == 1) {  // up to 64 nodes: a row is a word
            const std::uint64_t* src = r.row(0);
            std::uint64_t* dst = out.row(0);
            for (std::size_t i = 0; i < n_; ++i) dst[i] = (s[0] >> i & 1u) != 0 ? src[i] : 0;
            return out;
        }
        out = r;
        for (std::size_t i = 0; i < n_; ++i)
            if ((s[i / 64] >> (i % 64) & 1u) == 0) std::fill_n(out.row(i), out.words(), 0);
        return out;
    }
    case K::RanRestrict: {
        const BitRel& r = rel(o.a);
        if (empty(r)) return cleared(op);
        const lkmm::NodeSet& s = set(o.b);
        BitRel& out = rbuf(op);
        if (out.words() == 1) {
            const std::uint64_t mask = n_ == 0 ? 0 : s[0];
            const std::uint64_t* src = r.row(0);
            std::uint64_t* dst = out.row(0);
            for (std::size_t i = 0; i < n_; ++i) dst[i] = src[i] & mask;
            return out;
        }
        out = r;
        for (std::size_t i = 0; i < n_; ++i) {
            std::uint64_t* row = out.row(i);
            for (std::size_t w = 0; w < out.words(); ++w) row[w] &= s[w];
        }
        return out;
    }
    case K::Cart: {
        const lkmm::NodeSet& a = set(o.a);
        const lkmm::NodeSet& b = set(o.b);
        BitRel& out = rbuf(op);
        if (out.words() == 1) {
            std::uint64_t* dst = out.row(0);
            for (std::size_t i = 0; i < n_; ++i) dst[i] = (a[0] >> i & 1u) != 0 ? b[0] : 0;
            return out;
        }
        for (std::size_t i = 0; i < n_; ++i) {
            const bool in = (a[i / 64] >> (i % 64) & 1u) != 0;
            for (std::size_t w = 0; w < out.words(); ++w) out.row(i)[w] = in ? b[w] : 0;
        }
        return out;
    }
    case K::Star:
    case K::Plus:
    case K::Opt: {
        const BitRel& a = rel(o.a);
        BitRel& out = rbuf(op);
        out = a;
        if (o.k != K::Opt) out.close();
        if (o.k != K::Plus) out.add_identity();
        return out;
    }
    case K::Inverse: {
        const BitRel& a = rel(o.a);
        BitRel& out = rbuf(op);
        a.inverse_into(out);
        return out;
    }
    case K::Complement: {
        const BitRel& a = rel(o.a);
        BitRel& out = rbuf(op);
        for (std::size_t i = 0; i < n_; ++i)
            for (std::size_t w = 0; w < out.words(); ++w) {
                const std::size_t lo = w * 64;
                const std::uint64_t all = n_ - lo >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (n_ - lo)) - 1;
                out.row(i)[w] = all & ~a.row(i)[w];
            }
        return out;
    }
    case K::Identity: {
        const lkmm::NodeSet& s = set(o.a);
        if (std::all_of(s.begin(), s.end(), [](std::uint64_t w) { return w == 0; })) return cleared(op);  // a fence kind the graph lacks
        BitRel& out = rbuf(op);
        out.clear();
        for (std::size_t i = 0; i < n_; ++i)
            if ((s[i / 64] >> (i % 64) & 1u) != 0) out.set(i, i);
        return out;
    }
    case K::DiffValues: {
        const BitRel& a = rel(o.a);
        BitRel& out = rbuf(op);
        out.clear();
        for (std::size_t i = 0; i < n_; ++i)
            a.for_each(i, [&](std::size_t j) {
                if (values_[i] != values_[j]) out.set(i, j);
            });
        return out;
    }
    case K::Let: bind(p_.ops[static_cast<std::size_t>(op)]); return rel(o.a);
    case K::Rec: rec(op); return rel(o.a);
    default: break;
    }
    throw CatError(pos(op), "expected a relation");
}

const lkmm::NodeSet& Runner::compute_set(int op) {
    const HotOp& o = p_.hot[static_cast<std::size_t>(op)];
    using K = Op::K;
    switch (o.k) {
    case K::Top:
        if (o.ref < p_.code.size() && p_.code[o.ref] >= 0) return set(p_.code[o.ref]);
        if (const lkmm::NodeSet* s = top_.set(o.ref, pos(op))) return *s;
        [[fallthrough]];
    case K::Zero: {
        lkmm::NodeSet& z = sbuf(op);
        std::fill(z.begin(), z.end(), 0);
        return z;
    }
    case K::Local: return *buf_.slot_set[o.ref];
    case K::Union:
    case K::Inter:
    case K::Diff: {
        const lkmm::NodeSet& a = set(o.a);
        if (o.k != K::Union && std::all_of(a.begin(), a.end(), [](std::uint64_t w) { return w == 0; })) {
            lkmm::NodeSet& z = sbuf(op);  // b is not needed (nor evaluated)
            std::fill(z.begin(), z.end(), 0);
            return z;
        }
        const lkmm::NodeSet& b = set(o.b);
        lkmm::NodeSet& out = sbuf(op);
        for (std::size_t w = 0; w < out.size(); ++w)
            out[w] = o.k == K::Union ? a[w] | b[w] : o.k == K::Inter ? a[w] & b[w] : a[w] & ~b[w];
        return out;
    }
    case K::Complement: {
        const lkmm::NodeSet& a = set(o.a);
        const lkmm::NodeSet* u = top_.set(o.ref, pos(op));
        lkmm::NodeSet& out = sbuf(op);
        for (std::size_t w = 0; w < out.size(); ++w) out[w] = u == nullptr ? 0 : (*u)[w] & ~a[w];
        return out;
    }
    case K::Domain:
    case K::Range: {
        const BitRel& r = rel(o.a);
        lkmm::NodeSet& out = sbuf(op);
        std::fill(out.begin(), out.end(), 0);
        for (std::size_t i = 0; i < n_; ++i)
            if (o.k == K::Domain) {
                bool any = false;
                for (std::size_t w = 0; w < r.words(); ++w) any = any || r.row(i)[w] != 0;
                if (any) out[i / 64] |= std::uint64_t{1} << (i % 64);
            } else {
                for (std::size_t w = 0; w < r.words(); ++w) out[w] |= r.row(i)[w];
            }
        return out;
    }
    case K::Let: bind(p_.ops[static_cast<std::size_t>(op)]); return set(o.a);
    case K::Rec: rec(op); return set(o.a);
    default: break;
    }
    throw CatError(pos(op), "expected a set of events");
}

}  // namespace oc::cat
