// SPDX-License-Identifier: MIT
// The library files of herd's that the evaluator and the compiler provide themselves
// (cat_compile.hpp: prelude(), cos_opt()).
#include "checker/memory_model/cat/cat_compile.hpp"
#include "checker/memory_model/cat/cat_parser.hpp"

namespace oc::cat {

namespace {

/// herd's prelude (stdlib.cat), as this evaluator defines it.
const char* const prelude_text = R"(
let emptyset = 0
let po-loc = po & loc
let rfe = rf & ext
let rfi = rf & int
let co0 = loc & ((IW * (W \ IW)) | ((W \ FW) * FW))
let fencerel(S) = po ; [S] ; po
let singlestep(r) = r \ (r ; r)
)";

/// What cos-opt.cat gives a model (herd generates co; ordercheck's graph engine chose it).
const char* const cos_text = R"(
with co from total-orders(W, co0)
let coi = co & int
let coe = co \ coi
let fr = (rf^-1 ; co) \ id
let fri = fr & int
let fre = fr \ fri
)";

}  // namespace

const Model& prelude() {
    static const Model m = parse(prelude_text, "<prelude>");
    return m;
}
const Model& cos_opt() {
    static const Model m = parse(cos_text, "<cos-opt.cat>");
    return m;
}

}  // namespace oc::cat
