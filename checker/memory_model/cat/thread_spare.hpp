// SPDX-License-Identifier: MIT
// An object kept from one use to the next on a thread: the cat evaluator's index of top-level
// bindings, whose vectors an evaluation would otherwise allocate anew for every graph.
#pragma once

#include <memory>
#include <utility>
#include <vector>

namespace oc::cat {

/// A T taken from the thread's spares (or made) for as long as the lease lives, then given back
/// to them. The holder empties it before it ends (its capacity is what is kept). A lease
/// taken while another is held gets another T.
template <class T>
class ThreadSpare {
public:
    ThreadSpare() {
        auto& s = spares();
        if (s.empty()) {
            held_ = std::make_unique<T>();
        } else {
            held_ = std::move(s.back());
            s.pop_back();
        }
    }
    ~ThreadSpare() { spares().push_back(std::move(held_)); }
    ThreadSpare(const ThreadSpare&) = delete;
    ThreadSpare& operator=(const ThreadSpare&) = delete;
    T* operator->() const { return held_.get(); }
    T& operator*() const { return *held_; }

private:
    static std::vector<std::unique_ptr<T>>& spares() {
        thread_local std::vector<std::unique_ptr<T>> s;
        return s;
    }
    std::unique_ptr<T> held_;
};

}  // namespace oc::cat
