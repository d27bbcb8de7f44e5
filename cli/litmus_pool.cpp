// SPDX-License-Identifier: MIT
#include "cli/litmus_pool.hpp"

#include <poll.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "checker/explore/exploration.hpp"
#include "cli/parallel.hpp"

namespace oc::cli {

namespace {

// A worker writes "kind judgement unsettled out-length err-length\n", then the two texts.
std::string encode(const TestRun& r) {
    return std::to_string(static_cast<int>(r.kind)) + ' ' + std::to_string(r.judgement) + ' ' +
           std::to_string(int{r.unsettled}) + ' ' + std::to_string(r.out.size()) + ' ' + std::to_string(r.err.size()) + '\n' + r.out + r.err;
}

std::optional<TestRun> decode(const std::string& s) {
    const auto nl = s.find('\n');
    if (nl == std::string::npos) return std::nullopt;
    int kind = 0, judgement = 0, unsettled = 0;
    unsigned long long out = 0, err = 0;
    if (std::sscanf(s.c_str(), "%d %d %d %llu %llu", &kind, &judgement, &unsettled, &out, &err) != 5)
        return std::nullopt;
    if (kind < 0 || kind > static_cast<int>(TestRun::Kind::WorkerFailed) || s.size() - nl - 1 != out + err)
        return std::nullopt;
    TestRun r;
    r.kind = static_cast<TestRun::Kind>(kind);
    r.judgement = judgement;
    r.unsettled = unsettled != 0;
    r.out = s.substr(nl + 1, out);
    r.err = s.substr(nl + 1 + out, err);
    return r;
}

struct Worker {
    pid_t pid = -1;
    int fd = -1;
    std::size_t index = 0;
    std::string data;
};

Worker spawn(std::size_t index, const std::function<TestRun(std::size_t)>& run) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error(std::string("ordercheck: pipe: ") + std::strerror(errno));
    std::cout << std::flush;
    std::cerr << std::flush;
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("ordercheck: fork: ") + std::strerror(errno));
    if (pid == 0) {
        // The parent decides when to stop (as check --jobs's workers: cli/parallel.cpp).
        ::close(fds[0]);
        std::signal(SIGINT, SIG_IGN);
        std::signal(SIGTERM, SIG_DFL);
#ifdef __linux__
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
        if (::getppid() != parent) ::_exit(2);
        TestRun r;
        try {
            r = run(index);
        } catch (const std::exception& e) {
            r.kind = TestRun::Kind::WorkerFailed;
            r.err = std::string(e.what()) + '\n';
        }
        (void)write_all(fds[1], encode(r));  // a failed write shows as a worker with no result
        ::close(fds[1]);
        ::_exit(0);
    }
    ::close(fds[1]);
    return Worker{pid, fds[0], index, {}};
}

/// Waits for w's process; its result, or a WorkerFailed one saying how it ended.
TestRun finish(Worker& w) {
    ::close(w.fd);
    int status = 0;
    while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (auto r = decode(w.data); r && WIFEXITED(status) && WEXITSTATUS(status) == 0) return *r;
    TestRun failed;
    failed.kind = TestRun::Kind::WorkerFailed;
    failed.err = WIFSIGNALED(status) ? "the worker process was ended by signal " + std::to_string(WTERMSIG(status))
                                     : "the worker process exited with status " + std::to_string(WEXITSTATUS(status)) +
                                           " and no result";
    return failed;
}

}  // namespace

std::size_t run_pool(std::size_t count, unsigned jobs, const std::function<TestRun(std::size_t)>& run,
                     const std::function<bool(const TestRun&)>& emit) {
    std::vector<std::optional<TestRun>> results(count);
    std::vector<Worker> active;
    std::size_t next = 0, emitted = 0;
    bool stop = false;
    while (emitted < count && !stop) {
        if (stop_cause() != StopCause::None) break;
        while (active.size() < jobs && next < count) active.push_back(spawn(next++, run));
        std::vector<pollfd> fds;
        for (const Worker& w : active) fds.push_back(pollfd{w.fd, POLLIN, 0});
        if (::poll(fds.data(), fds.size(), 200) < 0 && errno != EINTR)
            throw std::runtime_error(std::string("ordercheck: poll: ") + std::strerror(errno));
        for (std::size_t k = active.size(); k-- > 0;) {
            if ((fds[k].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
            char buf[65536];
            const ssize_t n = ::read(active[k].fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR) continue;
            if (n > 0) {
                active[k].data.append(buf, static_cast<std::size_t>(n));
                continue;
            }
            results[active[k].index] = finish(active[k]);
            active.erase(active.begin() + static_cast<std::ptrdiff_t>(k));
        }
        while (emitted < count && results[emitted] && !stop) {
            stop = !emit(*results[emitted]);
            if (!stop) ++emitted;
        }
    }
    for (Worker& w : active) ::kill(w.pid, SIGTERM);
    for (Worker& w : active) (void)finish(w);
    return emitted;
}

}  // namespace oc::cli
