#include "process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <csignal>
#include <optional>
#include <thread>

#include <bankgate/gate/reports/report.hpp>

extern char** environ;

namespace bankgate::cli {
namespace {

std::vector<char*> c_arguments(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  return args;
}

// This process's environment with `extra` put over it, as the NAME=VALUE strings a child is started with.
std::vector<std::string> child_environment(const ChildEnvironment& extra) {
  std::vector<std::string> entries;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    const bool replaced = std::any_of(extra.begin(), extra.end(), [&](const auto& v) { return v.first == name; });
    if (!replaced) entries.push_back(entry);
  }
  for (const auto& [name, value] : extra) entries.push_back(name + "=" + value);
  return entries;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 127;
}

}  // namespace

namespace {

// Starts `argv` with its output to ours or to `log`; the child's id, or nullopt where it could not be started.
std::optional<pid_t> spawn(const std::vector<std::string>& argv, const std::string& log,
                           const ChildEnvironment& extra) {
  std::fflush(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!log.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  }
  pid_t pid = 0;
  std::vector<char*> args = c_arguments(argv);
  const std::vector<std::string> environment = child_environment(extra);
  std::vector<char*> envp = c_arguments(environment);
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return std::nullopt;
  return pid;
}

}  // namespace

int run_program(const std::vector<std::string>& argv, const std::string& log, const ChildEnvironment& extra) {
  const std::optional<pid_t> pid = spawn(argv, log, extra);
  return pid ? wait_for(*pid) : 127;
}

Watched run_program_watched(const std::vector<std::string>& argv, const ChildEnvironment& extra,
                            const std::function<Watching()>& watch) {
  const std::optional<pid_t> pid = spawn(argv, "", extra);
  if (!pid) return {127};
  for (;;) {
    int status = 0;
    const pid_t ended = waitpid(*pid, &status, WNOHANG);
    if (ended == *pid) {
      if (WIFEXITED(status)) return {WEXITSTATUS(status)};
      return {WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 127};
    }
    if (ended < 0 && errno != EINTR) return {127};
    switch (watch()) {
      case Watching::go_on:
        break;
      case Watching::kill:
        kill(*pid, SIGKILL);
        return {wait_for(*pid)};
      case Watching::let_go:
        return {std::nullopt, *pid};
    }
    std::this_thread::sleep_for(watch_interval);
  }
}

void reap_child(pid_t pid, std::chrono::seconds patience) {
  const auto until = std::chrono::steady_clock::now() + patience;
  int status = 0;
  while (std::chrono::steady_clock::now() < until) {
    const pid_t ended = waitpid(pid, &status, WNOHANG);
    if (ended == pid || (ended < 0 && errno != EINTR)) return;
    std::this_thread::sleep_for(watch_interval);
  }
  kill(pid, SIGKILL);
  wait_for(pid);
}

std::string program_output(const std::vector<std::string>& argv, const ChildEnvironment& extra) {
  int pipe_fds[2];
  // Close-on-exec: a grandchild that lives on must not hold the pipe open, or reading it would never end.
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return "";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  std::vector<char*> args = c_arguments(argv);
  const std::vector<std::string> environment = child_environment(extra);
  std::vector<char*> envp = c_arguments(environment);
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  std::string out;
  std::array<char, 4096> buffer{};
  ssize_t n = 0;
  while ((n = read(pipe_fds[0], buffer.data(), buffer.size())) > 0)
    out.append(buffer.data(), static_cast<std::size_t>(n));
  close(pipe_fds[0]);
  if (spawned != 0 || wait_for(pid) != 0) return "";
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace bankgate::cli
