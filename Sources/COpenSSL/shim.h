// OpenSSL's settings are mostly macros over SSL_CTX_ctrl and its option bits are 64-bit casts,
// neither of which Swift can import; these small functions stand in for them.
#ifndef STOCKROOM_OPENSSL_SHIM_H
#define STOCKROOM_OPENSSL_SHIM_H

#include <errno.h>
#include <sys/socket.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// TLS 1.2 and 1.3 only; everything else is the library's secure default.
static inline int sr_ssl_ctx_set_min_tls12(SSL_CTX *ctx) {
  return (int)SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

// Partial writes and a moving buffer let a non-blocking writer retry with what is pending now.
// Record buffers are not released after every read and write (SSL_MODE_RELEASE_BUFFERS): that costs
// a free and two allocations of ~17 KiB per request (Scripts/bench: 21.6 against 19.2 µs of server
// CPU per TLS PING, three rounds each). The server gives them back once a connection has been quiet
// for a second instead (SSL_free_buffers from the loop's idle sweep; TLSTests measures it).
static inline void sr_ssl_ctx_set_modes(SSL_CTX *ctx, int blocking) {
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  // A blocking reader that polls its socket must not be kept waiting inside SSL_read by a
  // record that carries no data (a session ticket, a key update).
  if (blocking) SSL_CTX_clear_mode(ctx, SSL_MODE_AUTO_RETRY);
}

// No renegotiation (a client could make the server redo handshakes at will).
static inline void sr_ssl_ctx_set_server_options(SSL_CTX *ctx) {
  SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
}

// No server-side session cache: it would keep up to 20,480 sessions in memory; stateless
// tickets still let a client resume. A session is bound to this context's id: without one,
// OpenSSL refuses to resume a session on a context that verifies peers (--tls-ca) with a fatal
// internal_error alert ("session id context uninitialized"), and the client gets no session.
static inline int sr_ssl_ctx_set_sessions(SSL_CTX *ctx) {
  static const unsigned char context_id[] = "stockroomd";
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
  return SSL_CTX_set_session_id_context(ctx, context_id, sizeof context_id - 1);
}

// TLS 1.2 suites: forward secrecy and authenticated encryption only (AES-GCM, ChaCha20-Poly1305),
// as Mozilla's "intermediate" profile without finite-field DHE. OpenSSL's default also offers CBC
// suites, which scanners rate LOW (LUCKY13). TLS 1.3's suites are all AEAD and stay the default.
static inline int sr_ssl_ctx_set_tls12_ciphers(SSL_CTX *ctx) {
  return SSL_CTX_set_cipher_list(
    ctx,
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305");
}

static inline void sr_ssl_ctx_set_read_ahead(SSL_CTX *ctx, int on) { SSL_CTX_set_read_ahead(ctx, on); }

// Server Name Indication: which name the client dialled, for a server with many certificates.
static inline int sr_ssl_set_sni(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }

// OpenSSL's socket BIO sends with write(2), so a peer that has gone away raises SIGPIPE, whose
// default kills the whole process: a server ignores it, but a client library must not rely on
// its host doing so. This BIO is the socket BIO with its sends made by send(2) with MSG_NOSIGNAL,
// which fails with EPIPE instead.
static inline int sr_bio_send_without_sigpipe(BIO *bio, const char *data, int length) {
  int fd = -1;
  BIO_get_fd(bio, &fd);
  errno = 0;
  int sent = (int)send(fd, data, (size_t)(length < 0 ? 0 : length), MSG_NOSIGNAL);
  BIO_clear_retry_flags(bio);
  if (sent <= 0 && BIO_sock_should_retry(sent)) BIO_set_retry_write(bio);
  return sent;
}

// The method for such BIOs, made once per context and freed with it (NULL if OpenSSL refuses).
static inline BIO_METHOD *sr_bio_method_socket_without_sigpipe(void) {
  const BIO_METHOD *socket = BIO_s_socket();
  int type = BIO_get_new_index();
  if (type == -1) return NULL;
  BIO_METHOD *method = BIO_meth_new(type | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR, "socket without SIGPIPE");
  if (method == NULL) return NULL;
  if (BIO_meth_set_write(method, sr_bio_send_without_sigpipe) != 1
      || BIO_meth_set_read(method, BIO_meth_get_read(socket)) != 1
      || BIO_meth_set_puts(method, BIO_meth_get_puts(socket)) != 1
      || BIO_meth_set_ctrl(method, BIO_meth_get_ctrl(socket)) != 1
      || BIO_meth_set_create(method, BIO_meth_get_create(socket)) != 1
      || BIO_meth_set_destroy(method, BIO_meth_get_destroy(socket)) != 1) {
    BIO_meth_free(method);
    return NULL;
  }
  return method;
}

// A BIO of that method on `fd`, which it never closes; SSL_set_bio hands it to the connection.
static inline BIO *sr_bio_new_socket(const BIO_METHOD *method, int fd) {
  BIO *bio = BIO_new(method);
  if (bio != NULL) BIO_set_fd(bio, fd, BIO_NOCLOSE);
  return bio;
}

// OpenSSL frees its global state from an atexit handler unless told not to, while threads that
// are still ending free their own per-thread state: a process that exits with such threads (a
// server stopping, the bench's connections) then crashes in OpenSSL. The first initialisation
// decides, so this must come before any other OpenSSL call; the process's exit frees the rest.
static inline int sr_openssl_init_without_atexit(void) {
  return OPENSSL_init_ssl(OPENSSL_INIT_NO_ATEXIT | OPENSSL_INIT_LOAD_SSL_STRINGS | OPENSSL_INIT_LOAD_CRYPTO_STRINGS, NULL);
}

static inline int sr_err_reason(unsigned long code) { return ERR_GET_REASON(code); }

static inline int sr_reason_unexpected_eof(void) { return SSL_R_UNEXPECTED_EOF_WHILE_READING; }

#endif
