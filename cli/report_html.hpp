// SPDX-License-Identifier: MIT
// `ordercheck report`: one static HTML page (no script, no network) with, per model, the variant
// table, metrics, barrier-necessity tables and the witness figures inline.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checker/driver/check.hpp"
#include "checker/driver/necessity.hpp"

namespace oc::cli {

/// Everything the page shows about one model.
struct ModelSection {
    std::string name, family, description;
    std::vector<Report> reports;
    std::vector<NecessityReport> necessity;  ///< for the variants proved Never
    /// For each report with a witness, what explains it (explaining_report()) and its title note.
    std::vector<std::pair<Report, std::string>> witnesses;
};

/// Explores every variant of `models` (and the necessity of each proved variant when asked),
/// under `model` (judged by `memory_model` when set: a cat model), or (nullopt) each variant under its default_memory_model(). Once stop_cause()
/// is set (an interrupt, the command's --timeout) it ends early: the sections then hold the
/// variants finished before (a model none of which finished is left out).
std::vector<ModelSection> build_sections(const std::vector<ModelDef>& models, bool with_necessity,
                                         EngineKind engine = EngineKind::Graph,
                                         std::optional<ModelKind> model = ModelKind::Rc11,
                                         const MemoryModel* memory_model = nullptr);

/// The page. Figures are rendered with graphviz when it is present (a note says so otherwise).
/// `notice`, when set, says at the top that the page is partial (stopped before every variant was
/// explored).
std::string render_html(const std::vector<ModelSection>& sections, const std::string& notice = {});

}  // namespace oc::cli
