/*
 * nfq-delay QUEUE MS: holds every packet netfilter hands to NFQUEUE number QUEUE for MS
 * milliseconds, then lets it go. The cluster harness adds latency between hosts with it where the
 * kernel has no sch_netem (tc's delay): one per host's network namespace, fed by an iptables
 * `OUTPUT -o eth0 -j NFQUEUE --queue-bypass` rule, so a host's outgoing packets leave MS late and
 * in order. Built by bench/cluster/delayer.ts with Debian's libnetfilter-queue-dev.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <linux/netfilter.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

/* Packets held at once; past it a packet goes without delay rather than being lost. */
#define HELD_MAX 65536

struct held { uint32_t id; uint64_t due_ns; };
static struct held ring[HELD_MAX];
static unsigned head, tail; /* ring[head..tail) in arrival order, so also in due order */
static uint64_t delay_ns;
static volatile sig_atomic_t stopping;

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int on_packet(struct nfq_q_handle *queue, struct nfgenmsg *msg, struct nfq_data *packet, void *unused) {
  (void)msg; (void)unused;
  struct nfqnl_msg_packet_hdr *header = nfq_get_msg_packet_hdr(packet);
  if (!header) return 0;
  uint32_t id = ntohl(header->packet_id);
  if (tail - head >= HELD_MAX) return nfq_set_verdict(queue, id, NF_ACCEPT, 0, NULL);
  ring[tail % HELD_MAX] = (struct held){ id, now_ns() + delay_ns };
  tail++;
  return 0;
}

/* Lets go every packet whose time has come (all of them when stopping). */
static void release_due(struct nfq_q_handle *queue) {
  uint64_t now = now_ns();
  while (head != tail && (stopping || ring[head % HELD_MAX].due_ns <= now)) {
    nfq_set_verdict(queue, ring[head % HELD_MAX].id, NF_ACCEPT, 0, NULL);
    head++;
  }
}

static void on_signal(int signal) { (void)signal; stopping = 1; }

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: nfq-delay QUEUE MS\n");
    return 2;
  }
  int number = atoi(argv[1]);
  delay_ns = (uint64_t)atoi(argv[2]) * 1000000u;
  struct nfq_handle *handle = nfq_open();
  if (!handle) { perror("nfq_open"); return 1; }
  struct nfq_q_handle *queue = nfq_create_queue(handle, number, on_packet, NULL);
  if (!queue) { perror("nfq_create_queue"); return 1; }
  /* The verdict needs only the packet's id: copy no payload to user space. */
  if (nfq_set_mode(queue, NFQNL_COPY_META, 0) < 0) { perror("nfq_set_mode"); return 1; }
  nfq_set_queue_maxlen(queue, HELD_MAX);
  int fd = nfq_fd(handle);
  int on = 1;
  /* A burst past the socket's buffer costs those packets' delay, not the loop. */
  setsockopt(fd, SOL_NETLINK, NETLINK_NO_ENOBUFS, &on, sizeof on);
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  printf("nfq-delay: queue %d holds packets %s ms\n", number, argv[2]);
  fflush(stdout);
  char buffer[4096] __attribute__((aligned));
  while (!stopping) {
    int wait_ms = -1;
    if (head != tail) {
      uint64_t due = ring[head % HELD_MAX].due_ns, now = now_ns();
      wait_ms = due <= now ? 0 : (int)((due - now + 999999) / 1000000);
    }
    struct pollfd ready = { fd, POLLIN, 0 };
    if (poll(&ready, 1, wait_ms) > 0) {
      ssize_t length;
      while ((length = recv(fd, buffer, sizeof buffer, MSG_DONTWAIT)) > 0) nfq_handle_packet(handle, buffer, (int)length);
    }
    release_due(queue);
  }
  release_due(queue);
  nfq_destroy_queue(queue);
  nfq_close(handle);
  return 0;
}
