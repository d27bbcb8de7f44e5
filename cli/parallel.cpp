// SPDX-License-Identifier: MIT
#include "cli/parallel.hpp"

#include <poll.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "checker/version.hpp"

#ifdef OC_HAVE_MPI
#define OMPI_SKIP_MPICXX 1  // the C API only (the C++ bindings are deprecated and warn)
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace oc::cli {

namespace {

using Clock = std::chrono::steady_clock;

// ---- progress on stderr ---------------------------------------------------------------------

std::string count_text(double n) {
    char buf[32];
    if (n >= 1e9)
        std::snprintf(buf, sizeof buf, "%.2fG", n / 1e9);
    else if (n >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2fM", n / 1e6);
    else if (n >= 1e4)
        std::snprintf(buf, sizeof buf, "%.1fk", n / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.0f", n);
    return buf;
}

std::string duration_text(double s) {
    char buf[32];
    if (s < 60)
        std::snprintf(buf, sizeof buf, "%.1fs", s);
    else if (s < 3600)
        std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
    else
        std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
    return buf;
}

/// One status line on stderr: redrawn in place on a terminal, one line per update otherwise.
/// Silent for the first second of a run.
class ProgressLine {
public:
    explicit ProgressLine(ProgressMode mode)
        : tty_(::isatty(STDERR_FILENO) == 1),
          enabled_(mode == ProgressMode::On || (mode == ProgressMode::Auto && tty_)) {}
    ~ProgressLine() { clear(); }
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    bool enabled() const { return enabled_; }

    void show(const std::string& what, std::uint64_t interleavings, std::uint64_t distinct, double elapsed,
              double fraction) {
        if (!enabled_ || elapsed < 1.0) return;
        const auto now = Clock::now();
        // A log (not a terminal) gets a line every few seconds, a terminal a redraw twice a second.
        if (shown_ && std::chrono::duration<double>(now - last_).count() < (tty_ ? 0.5 : 5.0)) return;
        last_ = now;
        std::string line = "ordercheck: " + what + ": " + count_text(static_cast<double>(interleavings)) +
                           " interleavings, " + count_text(static_cast<double>(distinct)) + " distinct executions, " +
                           count_text(static_cast<double>(interleavings) / elapsed) + "/s, " +
                           duration_text(elapsed) + " elapsed";
        if (fraction > 0 && fraction < 1) {
            char pct[32];
            std::snprintf(pct, sizeof pct, "%.1f%%", 100 * fraction);
            line += ", ~" + std::string(pct) + " done, ETA " + duration_text(elapsed * (1 - fraction) / fraction);
        }
        if (tty_)
            std::fprintf(stderr, "\r\033[K%s", line.c_str());
        else
            std::fprintf(stderr, "%s\n", line.c_str());
        std::fflush(stderr);
        shown_ = true;
    }

    void clear() {
        if (shown_ && tty_) {
            std::fprintf(stderr, "\r\033[K");
            std::fflush(stderr);
        }
        shown_ = false;
    }

private:
    bool tty_;
    bool enabled_;
    bool shown_ = false;
    Clock::time_point last_{};
};

// ---- in this process ------------------------------------------------------------------------

struct Task {
    const VariantDef* variant;
    unsigned shard_index = 0;
    unsigned shard_count = 1;
};

std::string task_name(const Task& t) {
    return t.shard_count > 1 ? t.variant->id() + " shard " + std::to_string(t.shard_index) + "/" +
                                   std::to_string(t.shard_count)
                             : t.variant->id();
}

CheckOptions task_options(const CheckOptions& base, const Task& t) {
    CheckOptions o = base;
    o.explore.shard_index = t.shard_index;
    o.explore.shard_count = t.shard_count;
    if (t.shard_count > 1) o.keep_execution_hashes = true;  // what the merge unites
    return o;
}

Report run_here(const Task& t, const CheckOptions& base, ProgressLine& line) {
    CheckOptions o = task_options(base, t);
    const std::string name = task_name(t);
    if (line.enabled())
        o.progress = [&](const CheckProgress& p) {
            line.show(name, p.interleavings, p.distinct_executions, p.elapsed_seconds, p.fraction);
        };
    Report r = check(*t.variant, o);
    line.clear();
    return r;
}

// ---- worker processes -----------------------------------------------------------------------
//
// A worker is a fork() of this process that runs one task and writes, on a pipe, progress
// lines ("P interleavings distinct elapsed fraction"), then "R" and the task's JSON report (or
// "E message"). Relacy keeps one exploration per process (docs/relacy.md), hence
// processes, not threads.

[[noreturn]] void worker_main(int fd, const Task& t, const CheckOptions& base, const ReportHook& hook,
                              pid_t parent) {
    // The parent decides when to stop: a Ctrl-C (sent to the whole process group) leaves the
    // worker running until the parent, having seen it, ends it with SIGTERM; the worker also
    // ends when the parent dies without doing so (a second Ctrl-C, SIGKILL).
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGTERM, SIG_DFL);
#ifdef __linux__
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
    if (::getppid() != parent) ::_exit(2);  // the parent died before the line above
    int code = 0;
    try {
        CheckOptions o = task_options(base, t);
        o.keep_execution_hashes = true;
        o.progress = [fd](const CheckProgress& p) {
            char buf[128];
            std::snprintf(buf, sizeof buf, "P %llu %llu %.3f %.6f\n", static_cast<unsigned long long>(p.interleavings),
                          static_cast<unsigned long long>(p.distinct_executions), p.elapsed_seconds, p.fraction);
            write_all(fd, buf);
        };
        Report r = check(*t.variant, o);
        if (hook) hook(r);
        if (t.shard_count == 1) r.execution_hashes.clear();  // nothing to merge
        write_all(fd, "R\n" + format_json({r}, RunSettings{}));
    } catch (const std::exception& e) {
        std::string msg = e.what();
        for (char& c : msg)
            if (c == '\n') c = ' ';
        write_all(fd, "E " + msg + "\n");
        code = 2;
    }
    ::close(fd);
    std::fflush(nullptr);
    ::_exit(code);
}

struct Worker {
    pid_t pid = -1;
    int fd = -1;
    std::size_t task = 0;
    std::string buffer;  ///< unparsed bytes
    bool in_result = false;
    std::string result, error;
    std::uint64_t interleavings = 0, distinct = 0;
    double fraction = 0;
};

/// Consumes the complete lines of `w.buffer` (and, after "R", everything).
void consume(Worker& w) {
    while (!w.in_result) {
        const auto nl = w.buffer.find('\n');
        if (nl == std::string::npos) return;
        const std::string line = w.buffer.substr(0, nl);
        w.buffer.erase(0, nl + 1);
        if (line == "R") {
            w.in_result = true;
        } else if (line.rfind("E ", 0) == 0) {
            w.error = line.substr(2);
        } else if (line.rfind("P ", 0) == 0) {
            unsigned long long i = 0, d = 0;
            double elapsed = 0, f = 0;
            if (std::sscanf(line.c_str() + 2, "%llu %llu %lf %lf", &i, &d, &elapsed, &f) == 4) {
                w.interleavings = i;
                w.distinct = d;
                w.fraction = f;
            }
        }
    }
    w.result += w.buffer;
    w.buffer.clear();
}

/// The report of each task, by index; a task not finished (stopped) has none. Sets `stopped`
/// when stop_cause() ended the run, after killing and waiting for every running worker.
std::vector<std::optional<Report>> run_in_workers(const std::vector<Task>& tasks, const CheckOptions& options,
                                                  unsigned jobs, const ReportHook& hook, ProgressLine& line,
                                                  bool& stopped) {
    std::map<std::string, const VariantDef*> by_id;
    for (const auto& t : tasks) by_id[t.variant->id()] = t.variant;
    const auto lookup = [&](const std::string& id) -> const VariantDef* {
        const auto it = by_id.find(id);
        return it == by_id.end() ? nullptr : it->second;
    };

    std::vector<std::optional<Report>> results(tasks.size());
    std::vector<Worker> running;
    std::size_t next = 0, finished = 0;
    std::uint64_t done_interleavings = 0, done_distinct = 0;
    const auto start = Clock::now();

    const auto stop_all = [&]() {
        for (auto& w : running) {
            ::kill(w.pid, SIGTERM);
            ::close(w.fd);
            int status = 0;
            ::waitpid(w.pid, &status, 0);
        }
        running.clear();
    };

    try {
        while (next < tasks.size() || !running.empty()) {
            if (stop_cause() != StopCause::None) break;
            while (running.size() < jobs && next < tasks.size()) {
                int fds[2];
                if (::pipe(fds) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
                std::fflush(nullptr);
                std::cout.flush();
                const pid_t parent = ::getpid();
                const pid_t pid = ::fork();
                if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
                if (pid == 0) {
                    ::close(fds[0]);
                    for (auto& w : running) ::close(w.fd);
                    worker_main(fds[1], tasks[next], options, hook, parent);
                }
                ::close(fds[1]);
                Worker w;
                w.pid = pid;
                w.fd = fds[0];
                w.task = next++;
                running.push_back(std::move(w));
            }
            std::vector<pollfd> pfds;
            for (const auto& w : running) pfds.push_back(pollfd{w.fd, POLLIN, 0});
            const int n = ::poll(pfds.data(), pfds.size(), 250);
            if (n < 0 && errno != EINTR) throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
            if (stop_cause() != StopCause::None) break;
            bool lost = false;  // a worker died of a signal while the run was being stopped
            for (std::size_t i = running.size(); i-- > 0;) {
                if (n <= 0 || (pfds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
                Worker& w = running[i];
                char buf[65536];
                const ssize_t got = ::read(w.fd, buf, sizeof buf);
                if (got < 0 && errno == EINTR) continue;
                if (got > 0) {
                    w.buffer.append(buf, static_cast<std::size_t>(got));
                    consume(w);
                    continue;
                }
                // end of file: the worker is done
                ::close(w.fd);
                int status = 0;
                ::waitpid(w.pid, &status, 0);
                const Task& t = tasks[w.task];
                Worker done = std::move(w);
                running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
                if (!done.error.empty()) throw std::runtime_error(task_name(t) + ": " + done.error);
                if (!done.in_result && WIFSIGNALED(status) && stop_cause() != StopCause::None) {
                    lost = true;
                    break;
                }
                if (!done.in_result || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                    const std::string how = WIFSIGNALED(status) ? "was killed by signal " + std::to_string(WTERMSIG(status))
                                                                : "exited with status " + std::to_string(WEXITSTATUS(status));
                    throw std::runtime_error("the worker process for " + task_name(t) + " " + how);
                }
                auto parsed = parse_json(done.result, lookup);
                if (parsed.size() != 1) throw std::runtime_error("a worker returned " + std::to_string(parsed.size()) + " reports");
                done_interleavings += parsed[0].interleavings;
                done_distinct += parsed[0].distinct_executions;
                results[done.task] = std::move(parsed[0]);
                ++finished;
            }
            if (lost) break;
            if (line.enabled()) {
                std::uint64_t inter = done_interleavings, distinct = done_distinct;
                double fraction = static_cast<double>(finished);
                for (const auto& w : running) {
                    inter += w.interleavings;
                    distinct += w.distinct;
                    fraction += w.fraction;
                }
                const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
                line.show(std::to_string(finished) + "/" + std::to_string(tasks.size()) + " tasks in " +
                              std::to_string(jobs) + " processes",
                          inter, distinct, elapsed, fraction / static_cast<double>(tasks.size()));
            }
        }
    } catch (...) {
        line.clear();
        stop_all();
        throw;
    }
    line.clear();
    if (stop_cause() != StopCause::None && !running.empty()) {
        stopped = true;
        stop_all();
    }
    stopped = stopped || finished < tasks.size();
    return results;
}

/// The reports of the variants every task of which finished, in task order; `variants` counts
/// those variants.
std::vector<Report> finished_only(const std::vector<Task>& tasks, std::vector<std::optional<Report>>& results,
                                  std::size_t& variants) {
    std::map<const VariantDef*, bool> complete;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const auto it = complete.emplace(tasks[i].variant, true).first;
        it->second = it->second && results[i].has_value();
    }
    variants = 0;
    for (const auto& [v, all] : complete) variants += all ? 1 : 0;
    std::vector<Report> out;
    for (std::size_t i = 0; i < tasks.size(); ++i)
        if (complete[tasks[i].variant]) out.push_back(std::move(*results[i]));
    return out;
}

std::vector<Task> make_tasks(const std::vector<const VariantDef*>& variants, const RunPlan& plan,
                             const CheckOptions& options) {
    std::vector<Task> tasks;
    for (const VariantDef* v : variants) {
        if (plan.only_shard) {
            tasks.push_back(Task{v, plan.only_shard->first, plan.only_shard->second});
        } else if (plan.shards > 1 && searched_in_rounds(*v, options)) {
            // one task: its search is split over the threads of its worker (ExploreOptions::threads)
            tasks.push_back(Task{v, 0, 1});
        } else {
            for (unsigned s = 0; s < plan.shards; ++s) tasks.push_back(Task{v, s, plan.shards});
        }
    }
    return tasks;
}

/// Shard reports of one variant merged; --shard reports and unsharded ones as they are.
std::vector<Report> combine(std::vector<Report> reports, const RunPlan& plan) {
    if (plan.only_shard || plan.shards <= 1) return reports;
    return merge_by_variant(reports);
}

// ---- MPI ------------------------------------------------------------------------------------

#ifdef OC_HAVE_MPI
RunOutcome run_mpi(const std::vector<const VariantDef*>& variants, const CheckOptions& options,
                   const RunPlan& plan, const ReportHook& hook) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) MPI_Init(nullptr, nullptr);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    std::string error;
    std::vector<Report> mine;
    try {
        ProgressLine line(rank == 0 ? plan.progress : ProgressMode::Off);
        for (const VariantDef* v : variants) {
            Task t{v, static_cast<unsigned>(rank), static_cast<unsigned>(size)};
            if (size == 1) t.shard_count = 1;
            Report r = run_here(t, options, line);
            if (hook) hook(r);
            mine.push_back(std::move(r));
            if (stop_cause() != StopCause::None) break;  // SIGTERM (mpirun passes on a Ctrl-C as one)
        }
    } catch (const std::exception& e) {
        error = e.what();
    }
    // Every rank sends its reports (or its error) to rank 0, which merges them.
    const std::string payload = error.empty() ? "R" + format_json(mine, plan.settings) : "E" + error;
    int length = static_cast<int>(payload.size());
    std::vector<int> lengths(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::string all;
    if (rank == 0) {
        int total = 0;
        for (int i = 0; i < size; ++i) {
            offsets[static_cast<std::size_t>(i)] = total;
            total += lengths[static_cast<std::size_t>(i)];
        }
        all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(payload.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    RunOutcome out;
    out.processes = static_cast<unsigned>(size);
    out.print = rank == 0;
    if (rank == 0) {
        std::map<std::string, const VariantDef*> by_id;
        for (const VariantDef* v : variants) by_id[v->id()] = v;
        const auto lookup = [&](const std::string& id) -> const VariantDef* {
            const auto it = by_id.find(id);
            return it == by_id.end() ? nullptr : it->second;
        };
        std::vector<Report> gathered;
        std::string errors;
        for (int i = 0; i < size; ++i) {
            const std::string part = all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(i)]),
                                                static_cast<std::size_t>(lengths[static_cast<std::size_t>(i)]));
            if (!part.empty() && part[0] == 'E') {
                errors += "rank " + std::to_string(i) + ": " + part.substr(1) + "\n";
                continue;
            }
            RunSettings theirs;
            auto reports = parse_json(part.substr(1), lookup, &theirs);
            RunSettings ours = plan.settings;
            ours.version = version;
            ours.variants.clear();
            for (const VariantDef* v : variants) ours.variants.push_back(v->id());
            if (const auto d = run_difference(ours, theirs)) {
                errors += "rank " + std::to_string(i) + " ran a different " + d->field + " (" + d->b + ", rank 0: " +
                          d->a + "); every rank must run the same command\n";
                continue;
            }
            for (auto& r : reports) gathered.push_back(std::move(r));
        }
        if (!errors.empty()) {
            MPI_Finalize();
            throw std::runtime_error(errors);
        }
        // Rank order inside each variant does not matter: merge sorts by shard index.
        out.reports = size > 1 ? merge_by_variant(gathered) : gathered;
        out.total = variants.size();
        if (stop_cause() != StopCause::None) {
            // stopped: only the variants every rank explored to the end are results
            out.stopped = true;
            std::erase_if(out.reports, [&](const Report& r) {
                return r.exploration == Exploration::CutShort ||
                       (size > 1 && r.shard.merged.size() != static_cast<std::size_t>(size));
            });
        }
        out.finished = out.reports.size();
    }
    MPI_Finalize();
    if (rank != 0 && !error.empty()) std::fprintf(stderr, "ordercheck (rank %d): %s\n", rank, error.c_str());
    return out;
}
#endif

}  // namespace

bool mpi_available() {
#ifdef OC_HAVE_MPI
    return true;
#else
    return false;
#endif
}

bool launched_by_mpi() {
    if (std::getenv("ORDERCHECK_NO_MPI") != nullptr) return false;
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
        const char* v = std::getenv(var);
        if (v != nullptr && std::atoi(v) > 1) return true;
    }
    return false;
}

std::optional<std::pair<unsigned, unsigned>> parse_shard(const std::string& s) {
    const auto slash = s.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == s.size()) return std::nullopt;
    const std::string a = s.substr(0, slash), b = s.substr(slash + 1);
    const auto digits = [](const std::string& x) {
        return x.size() <= 6 && x.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!digits(a) || !digits(b)) return std::nullopt;
    const unsigned i = static_cast<unsigned>(std::stoul(a)), n = static_cast<unsigned>(std::stoul(b));
    if (n == 0 || i >= n) return std::nullopt;
    return std::make_pair(i, n);
}

bool write_all(int fd, const std::string& s) {
    std::size_t done = 0;
    while (done < s.size()) {
        const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

std::vector<Report> merge_by_variant(const std::vector<Report>& reports) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<Report>> groups;
    for (const auto& r : reports) {
        if (groups.find(r.id) == groups.end()) order.push_back(r.id);
        groups[r.id].push_back(r);
    }
    std::vector<Report> out;
    for (const auto& id : order) {
        auto& g = groups[id];
        for (const auto& r : g)
            if (r.engine != g[0].engine || r.memory_model != g[0].memory_model)
                throw std::invalid_argument("merge: " + id + ": shards of different runs (" +
                                            std::string(to_string(g[0].engine)) + " under " + g[0].memory_model +
                                            " and " + std::string(to_string(r.engine)) + " under " + r.memory_model +
                                            ")");
        if (g.size() == 1 && g[0].shard.count <= 1)
            out.push_back(std::move(g[0]));
        else
            out.push_back(merge_shards(g));
    }
    return out;
}

RunOutcome run_checks(const std::vector<const VariantDef*>& variants, const CheckOptions& options,
                      const RunPlan& plan, const ReportHook& hook) {
    if (launched_by_mpi()) {
        if (plan.jobs > 1 || plan.only_shard || plan.shards > 1)
            throw std::runtime_error("under mpirun every rank takes its shard: drop --jobs, --shards and --shard");
#ifdef OC_HAVE_MPI
        return run_mpi(variants, options, plan, hook);
#else
        throw std::runtime_error("this ordercheck was built without MPI (meson found no Open MPI), so every rank "
                                 "would explore everything; rebuild with libopenmpi-dev installed, or set "
                                 "ORDERCHECK_NO_MPI=1");
#endif
    }
    RunOutcome out;
    out.total = variants.size();
    // Fewer variants than workers: a search in load-buffering rounds (LKMM) takes the spare
    // workers as threads of its own.
    CheckOptions threaded = options;
    if (plan.jobs > variants.size() && !plan.only_shard && !variants.empty())
        threaded.explore.threads = plan.jobs / static_cast<unsigned>(variants.size());
    const CheckOptions& opts = threaded;
    const std::vector<Task> tasks = make_tasks(variants, plan, opts);
    ProgressLine line(plan.progress);
    if (plan.jobs <= 1) {
        std::vector<std::optional<Report>> results(tasks.size());
        for (std::size_t i = 0; i < tasks.size(); ++i) {
            if (stop_cause() != StopCause::None) break;
            Report r = run_here(tasks[i], opts, line);
            if (stop_cause() != StopCause::None && r.exploration == Exploration::CutShort) break;  // no result
            results[i] = std::move(r);
        }
        out.reports = combine(finished_only(tasks, results, out.finished), plan);
        out.stopped = out.finished < variants.size();
        // Witness graphs survive in this process: write witnesses of the final reports.
        if (hook)
            for (auto& r : out.reports) hook(r);
        return out;
    }
    out.processes = plan.jobs;
    auto results = run_in_workers(tasks, opts, plan.jobs, hook, line, out.stopped);
    out.reports = combine(finished_only(tasks, results, out.finished), plan);
    return out;
}

}  // namespace oc::cli
