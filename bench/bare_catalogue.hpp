// SPDX-License-Identifier: MIT
// Bare-Relacy twins of the catalogue (models/litmus/*.cpp, models/seeds/*.cpp), for the
// benchmark's per-model table (bench/bench.py, docs/performance.md "Benchmark").
//
// A twin is the model written directly against Relacy: rl::atomic<long> for Atomic<T>,
// rl::var<long> for Plain<T>, plain longs for registers, Relacy's own full_search_scheduler.
// It issues the same Relacy operations (loads, stores, RMWs, CASes with the same memory orders,
// fences, rl::yield) in the same order as ordercheck's mapping of the model does
// (checker/model/kernel_*.hpp, kernel.cpp, runtime.cpp, checker/relacy/relacy_engine.cpp), with the
// same thread count and the same quiescence work in after(); so its iteration count equals
// `ordercheck check ID --no-por`'s interleavings, which bench.py checks per variant ("same tree").
// A twin records the final values of the observables its model declares (registers, observed
// locations, derived values) as its outcome; ordercheck counts outcomes over certified
// executions only, so a twin can count more where certification rejects some (SB/sc_vs_fence).
//
// The twins are in bare_litmus_shapes.hpp and bare_seeds.hpp, on the primitives of
// bare_kernel.hpp; this header defines their configurations and registers them by id.
// Included by bare_relacy.cpp after relacy.hpp and bare_common.hpp.
#pragma once

#include <map>
#include <string>

#include "bench/bare_kernel.hpp"
#include "bench/bare_litmus_shapes.hpp"
#include "bench/bare_seeds.hpp"

namespace bare {

// The configuration each twin runs with (set by bare::twin before the search).
inline Sb::Config Sb::cfg;
inline Mp::Config Mp::cfg;
inline Lb::Config Lb::cfg;
inline IriwLitmus::Config IriwLitmus::cfg;
inline Wrc::Config Wrc::cfg;
inline TwoPlusTwoW::Config TwoPlusTwoW::cfg;
inline RLitmus::Config RLitmus::cfg;
inline SLitmus::Config SLitmus::cfg;
inline CoRR::Config CoRR::cfg;
inline Isa2::Config Isa2::cfg;
inline RShrinkerBit::Config RShrinkerBit::cfg;
inline ShrinkerBit::Config ShrinkerBit::cfg;
inline ShrinkerReparent::Config ShrinkerReparent::cfg;
inline MemcgFlush::Config MemcgFlush::cfg;
inline MemcgFlushOngoing::Config MemcgFlushOngoing::cfg;
inline Vmpressure::Config Vmpressure::cfg;
inline VmallocPurge::Config VmallocPurge::cfg;
inline VmallocDrain::Config VmallocDrain::cfg;

// ---- the registry -----------------------------------------------------------------------------

/// Every catalogue variant with a twin, by ordercheck id.
inline std::map<std::string, Runner> catalogue_twins() {
    using SBit = ShrinkerBit;
    using OE = ShrinkerBit::OnEmpty;
    using MF = MemcgFlush::Check;
    using MO = MemcgFlushOngoing::Coord;
    using VC = Vmpressure::Code;
    using VS = Vmpressure::Scenario;
    using VP = VmallocPurge::Code;
    return {
        {"SB/relaxed", twin<Sb>({})},
        {"SB/rel_acq", twin<Sb>({.write = rel, .read = acq})},
        {"SB/fenced", twin<Sb>({.fence0 = true, .fence1 = true})},
        {"SB/one_fence", twin<Sb>({.fence0 = true})},
        {"SB/sc_vs_fence", twin<Sb>({.fence1 = true, .sc0 = true})},
        {"MP/relaxed", twin<Mp>({})},
        {"MP/rel_acq", twin<Mp>({.flag_write = rel, .flag_read = acq})},
        {"MP/fenced", twin<Mp>({.release_fence = true, .acquire_fence = true})},
        {"MP/release_only", twin<Mp>({.flag_write = rel})},
        {"MP/fence_one_side", twin<Mp>({.release_fence = true})},
        {"LB/relaxed", twin<Lb>({})},
        {"LB/rel_acq", twin<Lb>({.read = acq, .write = rel})},
        {"LB/fenced", twin<Lb>({.fence0 = true, .fence1 = true})},
        {"LB/ctrl", twin<Lb>({.dep0 = Lb::Dep::Ctrl, .dep1 = Lb::Dep::Ctrl})},
        {"LB/data", twin<Lb>({.dep0 = Lb::Dep::Data, .dep1 = Lb::Dep::Data})},
        {"LB/one_ctrl", twin<Lb>({.dep0 = Lb::Dep::Ctrl})},
        {"IRIW/relaxed", twin<IriwLitmus>({})},
        {"IRIW/rel_acq", twin<IriwLitmus>({.write = rel, .read = acq})},
        {"WRC/relaxed", twin<Wrc>({})},
        {"WRC/rel_acq", twin<Wrc>({.x_write = rel, .x_read = acq, .y_write = rel, .y_read = acq})},
        {"WRC/y_rel_acq", twin<Wrc>({.y_write = rel, .y_read = acq})},
        {"WRC/fenced", twin<Wrc>({.release_fence1 = true, .acquire_fence2 = true})},
        {"WRC/wmb_acquire", twin<Wrc>({.y_read = acq, .release_fence1 = true})},
        {"2+2W/relaxed", twin<TwoPlusTwoW>({})},
        {"2+2W/rel_acq", twin<TwoPlusTwoW>({.write = rel})},
        {"2+2W/fenced", twin<TwoPlusTwoW>({.fence0 = true, .fence1 = true})},
        {"2+2W/fence_one_side", twin<TwoPlusTwoW>({.fence0 = true})},
        {"R/relaxed", twin<RLitmus>({})},
        {"R/rel_acq", twin<RLitmus>({.y_write = rel, .x_read = acq})},
        {"R/fenced", twin<RLitmus>({.fence0 = true, .fence1 = true})},
        {"R/fence_one_side", twin<RLitmus>({.fence1 = true})},
        {"S/relaxed", twin<SLitmus>({})},
        {"S/rel_acq", twin<SLitmus>({.y_write = rel, .y_read = acq})},
        {"S/fenced", twin<SLitmus>({.release_fence0 = true, .acquire_fence1 = true})},
        {"CoRR/relaxed", twin<CoRR>({})},
        {"CoRR/two_writes", twin<CoRR>({.second_write = true})},
        {"ISA2/relaxed", twin<Isa2>({})},
        {"ISA2/rel_acq", twin<Isa2>({.y_write = rel, .y_read = acq, .z_write = rel, .z_read = acq})},
        {"ISA2/fenced", twin<Isa2>({.fences = true})},
        {"ISA2/relaxed_middle", twin<Isa2>({.y_write = rel, .z_read = acq})},
        {"R+shrinker_bit/merged", twin<RShrinkerBit>({sc, sc})},
        {"R+shrinker_bit/no_before_atomic", twin<RShrinkerBit>({rlx, sc})},
        {"R+shrinker_bit/no_after_atomic", twin<RShrinkerBit>({sc, rlx})},
        {"R+shrinker_bit/neither", twin<RShrinkerBit>({rlx, rlx})},
        {"R+shrinker_bit/before_atomic_as_wmb", twin<RShrinkerBit>({rel, sc})},
        {"R+shrinker_bit/after_atomic_as_rmb", twin<RShrinkerBit>({sc, acq})},
        {"R+shrinker_bit/after_atomic_as_wmb", twin<RShrinkerBit>({sc, rel})},

        {"shrinker_bit/baseline", twin<SBit>({.on_empty = OE::Nothing, .before = rlx})},
        {"shrinker_bit/merged", twin<SBit>({})},
        {"shrinker_bit/no_after_atomic", twin<SBit>({.after = rlx})},
        {"shrinker_bit/no_before_atomic", twin<SBit>({.before = rlx})},
        {"shrinker_bit/no_recheck", twin<SBit>({.on_empty = OE::ClearOnly})},
        {"shrinker_bit/before_atomic_as_wmb", twin<SBit>({.before = rel})},
        {"shrinker_bit/after_atomic_as_rmb", twin<SBit>({.after = acq})},
        {"shrinker_bit/after_atomic_as_wmb", twin<SBit>({.after = rel})},
        {"shrinker_bit/locked_count", twin<SBit>({.before = rlx, .after = rlx, .locked_count = true, .passes = 2})},
        {"shrinker_bit/baseline_idle", twin<SBit>({.on_empty = OE::Nothing, .before = rlx, .after = rlx, .add = false})},
        {"shrinker_bit/merged_idle", twin<SBit>({.add = false})},
        {"shrinker_bit/reparent_before_fix", twin<ShrinkerReparent>({.fixed = false})},
        {"shrinker_bit/reparent_fixed", twin<ShrinkerReparent>({})},
        {"memcg_flush/baseline", twin<MemcgFlush>({MF::None})},
        {"memcg_flush/patched", twin<MemcgFlush>({MF::ReadSkip})},
        {"memcg_flush/check_after_mb", twin<MemcgFlush>({MF::MbRead})},
        {"memcg_flush/inverted_check", twin<MemcgFlush>({MF::Inverted})},
        {"memcg_flush/v6.0_trylock", twin<MemcgFlushOngoing>({MO::Trylock})},
        {"memcg_flush/v6.4_skip_if_ongoing", twin<MemcgFlushOngoing>({MO::Ongoing})},
        {"memcg_flush/v6.4_xchg_only", twin<MemcgFlushOngoing>({MO::XchgOnly})},
        {"memcg_flush/v6.8_no_skip", twin<MemcgFlushOngoing>({MO::NoSkip})},
        {"vmpressure/baseline", twin<Vmpressure>({VC::Baseline, VS::NoListener})},
        {"vmpressure/v3", twin<Vmpressure>({VC::V3, VS::NoListener})},
        {"vmpressure/v1_check_after_accumulation", twin<Vmpressure>({VC::V1, VS::NoListener})},
        {"vmpressure/v3_socket_pressure", twin<Vmpressure>({VC::V3, VS::Socket})},
        {"vmpressure/check_at_entry", twin<Vmpressure>({VC::CheckAtEntry, VS::Socket})},
        {"vmpressure/baseline_register_hb_reclaim", twin<Vmpressure>({VC::Baseline, VS::HbReclaim})},
        {"vmpressure/v3_register_hb_reclaim", twin<Vmpressure>({VC::V3, VS::HbReclaim})},
        {"vmpressure/plain_counter", twin<Vmpressure>({VC::PlainCounter, VS::Concurrent}, rl::test_result_data_race)},
        {"vmalloc_purge/baseline", twin<VmallocPurge>({VP::Baseline})},
        {"vmalloc_purge/seed", twin<VmallocPurge>({VP::Seed})},
        {"vmalloc_purge/v5_18", twin<VmallocPurge>({VP::V5_18})},
        {"vmalloc_purge/v2_in_progress_guard", twin<VmallocPurge>({VP::V2Guard})},
        {"vmalloc_purge/insert_before_add", twin<VmallocPurge>({VP::InsertBeforeAdd}, rl::test_result_user_assert_failed)},
        {"vmalloc_drain/v6_9", twin<VmallocDrain>({})},
        {"vmalloc_drain/v6_9_unordered_pending", twin<VmallocDrain>({.unordered_on_failure = true})},
        {"vmalloc_drain/v6_9_no_mb_after_clear", twin<VmallocDrain>({.no_mb_after_clear = true})},
        {"vmalloc_drain/locked_take_unordered_pending",
         twin<VmallocDrain>({.lockless_precheck = false, .unordered_on_failure = true})},
    };
}

}  // namespace bare
