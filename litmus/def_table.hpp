// SPDX-License-Identifier: MIT
// herd's macro table (a kernel tree's tools/memory-model/linux-kernel.def): which kernel
// primitives a litmus test may call and what each one is in herd's built-in operations
// (`READ_ONCE(X) __load{once}(X)`, `xchg(X,V) __xchg{mb}(X,V)`...). With a table, the litmus
// front end takes a primitive's meaning from it: a name the table defines is run as the
// ordercheck primitive with the same meaning, a name it does not define is refused as herd
// refuses it. docs/litmus.md, "The macro table", says what is and is not followed.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "litmus/ast.hpp"

namespace oc::litmus {

/// One macro of the table: `name(params) body`, its body normalised (`meaning`): parameters
/// as $0, $1..., tags in lower case, the macros it calls expanded, blocks and spaces dropped
/// (`smp_store_mb(X,V) { __store{ONCE}(X,V); __fence{MB}; }`: `__store{once}($0,$1);__fence{mb}`).
struct Macro {
    std::string name;
    std::vector<std::string> params;
    std::string meaning;
    SourcePos pos;
};

/// What a primitive call runs as under a table.
struct MacroUse {
    std::string primitive;     ///< the ordercheck primitive of the same meaning ("atomic_read")
    bool srcu_access = false;  ///< srcu_read_lock/unlock as herd's __load/__store{srcu-...} (lkmmv2)
};

class MacroTable {
public:
    /// Reads and normalises the table at `path`. Throws LitmusError (file:line:col) for a file
    /// that cannot be read, a line that is no macro, or a call of one of its macros with the
    /// wrong number of arguments. A body that uses a name the table does not define loads; a
    /// test that calls its macro is refused then (its form is no ordercheck primitive's).
    static std::shared_ptr<const MacroTable> load(const std::string& path);
    /// The table of `text`, read from `file`.
    static std::shared_ptr<const MacroTable> parse(std::string_view text, const std::string& file);

    const std::string& file() const { return file_; }
    const Macro* find(std::string_view name) const;
    const std::vector<Macro>& macros() const { return macros_; }

    /// How a call of `name` runs: the ordercheck primitive whose meaning is the macro's (its own
    /// name first); nullopt with `why` set when the table does not define `name` or defines it
    /// as something ordercheck's engine does not implement. Names that no linux-kernel.def
    /// defines (ordercheck's own kernel idioms: mutex_lock, set_bit...) are not looked up here
    /// (is_lkmm_primitive()).
    std::optional<MacroUse> resolve(std::string_view name, std::string& why) const;

private:
    std::string file_;
    std::vector<Macro> macros_;
    std::map<std::string, std::size_t, std::less<>> index_;
};

/// True for the primitives ordercheck takes from LKMM's linux-kernel.def (in any kernel version),
/// as opposed to its own kernel idioms, which a macro table does not govern.
bool is_lkmm_primitive(std::string_view name);

/// ordercheck's own meaning of each primitive it runs, in the normalised notation of Macro::meaning
/// (a primitive may have two: the SRCU ones of Linux 6.1 and of the newest model).
struct OwnMeaning {
    std::string name;
    std::string meaning;
    bool srcu_access = false;
};
const std::vector<OwnMeaning>& own_meanings();

}  // namespace oc::litmus
