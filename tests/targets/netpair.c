/*
 * netpair -- a loopback client and server in one process, for the tcp,
 * udp and ip providers' tests (tests/sh/net.sh).
 *
 *   netpair tcp4|tcp6|udp4|udp6|refused4|refused6 K
 *
 * tcp: listens on an ephemeral port of 127.0.0.1 or ::1, connects to it,
 * and sends K messages, message i (1..K) of 100 * i bytes, each answered
 * by a reply of 10 * i bytes before the next goes.  TCP_NODELAY and the
 * wait for each reply make every message and every reply one segment.
 * Then the client shuts its side down, the server reads the end and shuts
 * down its own, and the program waits until both sockets are CLOSED (the
 * last ACK is in), so every segment of the connection has been seen
 * before it exits.
 * udp: the same K messages and replies as datagrams between two sockets.
 * refused: K connects to a port just closed, each refused (ECONNREFUSED).
 * Prints "port P" (the server's) at the end.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static socklen_t loopback(int family, struct sockaddr_storage *ss, int port)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_loopback;
		s6->sin6_port = htons(port);
		return sizeof(*s6);
	}
	struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

	s4->sin_family = AF_INET;
	s4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s4->sin_port = htons(port);
	return sizeof(*s4);
}

static int port_of(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		die("getsockname");
	return ntohs(ss.ss_family == AF_INET6 ?
		     ((struct sockaddr_in6 *)&ss)->sin6_port :
		     ((struct sockaddr_in *)&ss)->sin_port);
}

/* all n bytes, or die: a stream may return them in pieces */
static void read_all(int fd, char *buf, size_t n)
{
	while (n > 0) {
		ssize_t r = read(fd, buf, n);

		if (r <= 0)
			die("read");
		buf += r;
		n -= (size_t)r;
	}
}

static void write_all(int fd, const char *buf, size_t n)
{
	if (write(fd, buf, n) != (ssize_t)n)
		die("write");
}

static int tcp_state(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		die("getsockopt");
	return ti.tcpi_state;
}

static int tcp_pair(int family, int k, char *buf)
{
	struct sockaddr_storage ss;
	socklen_t len = loopback(family, &ss, 0);
	int one = 1, lfd = socket(family, SOCK_STREAM, 0), cfd, sfd, port;

	if (lfd < 0 || bind(lfd, (struct sockaddr *)&ss, len) < 0 ||
	    listen(lfd, 1) < 0)
		die("listen");
	port = port_of(lfd);
	len = loopback(family, &ss, port);
	cfd = socket(family, SOCK_STREAM, 0);
	if (cfd < 0 || connect(cfd, (struct sockaddr *)&ss, len) < 0)
		die("connect");
	sfd = accept(lfd, NULL, NULL);
	if (sfd < 0)
		die("accept");
	close(lfd);
	setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(sfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (int i = 1; i <= k; i++) {
		write_all(cfd, buf, 100 * (size_t)i);
		read_all(sfd, buf, 100 * (size_t)i);
		write_all(sfd, buf, 10 * (size_t)i);
		read_all(cfd, buf, 10 * (size_t)i);
	}
	shutdown(cfd, SHUT_WR);
	if (read(sfd, buf, 1) != 0)
		die("server: no end of stream");
	shutdown(sfd, SHUT_WR);
	if (read(cfd, buf, 1) != 0)
		die("client: no end of stream");
	/* TCP_CLOSE is 7: the server's last ACK has come in */
	while (tcp_state(sfd) != 7 || tcp_state(cfd) != 7)
		sched_yield();
	close(cfd);
	close(sfd);
	return port;
}

static int udp_pair(int family, int k, char *buf)
{
	struct sockaddr_storage ss, cs;
	socklen_t len = loopback(family, &ss, 0), clen;
	int sfd = socket(family, SOCK_DGRAM, 0), cfd = socket(family, SOCK_DGRAM, 0);
	int port;

	if (sfd < 0 || cfd < 0 || bind(sfd, (struct sockaddr *)&ss, len) < 0)
		die("bind");
	port = port_of(sfd);
	len = loopback(family, &ss, port);
	for (int i = 1; i <= k; i++) {
		if (sendto(cfd, buf, 100 * (size_t)i, 0, (struct sockaddr *)&ss,
			   len) < 0)
			die("sendto");
		clen = sizeof(cs);
		if (recvfrom(sfd, buf, 65536, 0, (struct sockaddr *)&cs,
			     &clen) != 100 * i)
			die("recvfrom");
		if (sendto(sfd, buf, 10 * (size_t)i, 0, (struct sockaddr *)&cs,
			   clen) < 0)
			die("sendto");
		if (recv(cfd, buf, 65536, 0) != 10 * i)
			die("recv");
	}
	close(cfd);
	close(sfd);
	return port;
}

static int refused(int family, int k)
{
	struct sockaddr_storage ss;
	socklen_t len = loopback(family, &ss, 0);
	int fd = socket(family, SOCK_STREAM, 0), port;

	if (fd < 0 || bind(fd, (struct sockaddr *)&ss, len) < 0)
		die("bind");
	port = port_of(fd);
	close(fd);
	len = loopback(family, &ss, port);
	for (int i = 0; i < k; i++) {
		fd = socket(family, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&ss, len) == 0 ||
		    errno != ECONNREFUSED)
			die("connect: not refused");
		close(fd);
	}
	return port;
}

int main(int argc, char **argv)
{
	static char buf[65536];
	int k = argc > 2 ? atoi(argv[2]) : 0, port;

	if (argc != 3 || k < 1 || k > 60) {
		fprintf(stderr, "usage: netpair tcp4|tcp6|udp4|udp6|refused4|"
			"refused6 K (1-60)\n");
		return 2;
	}
	memset(buf, 'x', sizeof(buf));
	int family = argv[1][strlen(argv[1]) - 1] == '6' ? AF_INET6 : AF_INET;

	if (strncmp(argv[1], "refused", 7) == 0)
		port = refused(family, k);
	else if (strncmp(argv[1], "tcp", 3) == 0)
		port = tcp_pair(family, k, buf);
	else
		port = udp_pair(family, k, buf);
	printf("port %d\n", port);
	return 0;
}
