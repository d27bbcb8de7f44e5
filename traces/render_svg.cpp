// SPDX-License-Identifier: MIT
// Renders DOT to SVG by running graphviz `dot -Tsvg` (POSIX: posix_spawnp, no shell).
#include "traces/export.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

extern char** environ;

namespace oc {

namespace {

/// A temporary file, removed when this goes out of scope.
class TempFile {
public:
    TempFile() {
        const char* dir = std::getenv("TMPDIR");
        path_ = std::string(dir && *dir ? dir : "/tmp") + "/ordercheck-XXXXXX";
        fd_ = mkostemp(path_.data(), O_CLOEXEC);
    }
    ~TempFile() {
        if (fd_ < 0) return;
        close(fd_);
        unlink(path_.c_str());
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    bool ok() const { return fd_ >= 0; }
    int fd() const { return fd_; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    int fd_ = -1;
};

bool write_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = write(fd, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

std::string read_all(int fd) {
    std::string out;
    char buffer[4096];
    while (true) {
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        out.append(buffer, static_cast<std::size_t>(n));
    }
    return out;
}

std::string read_file(const std::string& path) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "";
    std::string out = read_all(fd);
    close(fd);
    return out;
}

}  // namespace

bool dot_available() {
    const char* path = std::getenv("PATH");
    if (!path) return false;
    std::string_view rest = path;
    while (true) {
        const std::size_t colon = rest.find(':');
        const std::string_view dir = rest.substr(0, colon);
        const std::string candidate = std::string(dir.empty() ? "." : dir) + "/dot";
        if (access(candidate.c_str(), X_OK) == 0) return true;
        if (colon == std::string_view::npos) return false;
        rest.remove_prefix(colon + 1);
    }
}

std::optional<std::string> render_svg(const std::string& dot_source, std::string& error) {
    if (!dot_available()) {
        error = "graphviz 'dot' was not found on PATH: install graphviz, or render the .dot file elsewhere";
        return std::nullopt;
    }
    TempFile input;
    TempFile errors;
    if (!input.ok() || !errors.ok() || !write_all(input.fd(), dot_source)) {
        error = std::string("cannot create a temporary file for dot: ") + std::strerror(errno);
        return std::nullopt;
    }
    int out_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) != 0) {
        error = std::string("cannot create a pipe for dot: ") + std::strerror(errno);
        return std::nullopt;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, input.path().c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, errors.path().c_str(), O_WRONLY | O_TRUNC, 0);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    std::string program = "dot";
    std::string format = "-Tsvg";
    std::vector<char*> argv{program.data(), format.data(), nullptr};
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, "dot", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out_pipe[1]);
    if (spawned != 0) {
        close(out_pipe[0]);
        error = std::string("cannot run dot: ") + std::strerror(spawned);
        return std::nullopt;
    }
    std::string svg = read_all(out_pipe[0]);
    close(out_pipe[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        const std::string message = read_file(errors.path());
        error = "dot -Tsvg failed" +
                (WIFEXITED(status) ? " (exit " + std::to_string(WEXITSTATUS(status)) + ")" : std::string(" (signal)")) +
                (message.empty() ? std::string() : ": " + message);
        return std::nullopt;
    }
    return svg;
}

}  // namespace oc
