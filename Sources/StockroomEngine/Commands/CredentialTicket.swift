import StockroomSecurity
import StockroomText
import Synchronization

/// Password work one request waits for, done on the credential pool and not on an event loop:
/// an Argon2id hash or check takes tens of milliseconds and 64 MiB (at the default cost), and a flood of LOGINs must
/// not stall anyone's orders.
///
/// The connection runs it, answers nothing more until it is done (the next request may depend
/// on who is logged in), then hands it back to the handler, which turns the result into a reply.
package final class CredentialTicket: Sendable {
  /// What the result is for.
  package enum Purpose: Sendable, Equatable {
    case login(name: String)
    case register(name: String)
    /// REGISTER of a name that has an account: its password is checked against the account's
    /// before `EXISTS` is answered, so learning that a name exists costs what a LOGIN costs.
    case registerTaken(name: String)
    case passwd(name: String)
    case userAdd(name: String, role: Role)
    case userPasswd(name: String)
  }

  package enum Work: Sendable {
    /// Check `password` against `hash`; a name without an account brings nil and is checked
    /// against the decoy made at `cost`, the server's, so it costs what a wrong password costs.
    case verify(hash: String?, password: Password, cost: PasswordCost)
    case hash(Password, cost: PasswordCost)
    /// PASSWD: the old password first, then the new one's hash.
    case verifyThenHash(hash: String, old: Password, new: Password, cost: PasswordCost)
  }

  package enum Result: Sendable, Equatable {
    case verified
    case wrongPassword
    case hashed(String)
    /// The pool's queue was full; nothing was checked.
    case busy
    case failed(String)
  }

  package let purpose: Purpose
  private let work: Work
  /// Nanoseconds to wait before starting: the throttle's delay after failed attempts.
  package let delay: UInt64
  /// The address the work is for, whose turn on the credential pool it takes (`JobPool`).
  package let source: PeerSource?
  /// Told on the pool's thread when a check finds the password wrong (`LoginThrottle.checkFailed`).
  private let wrong: (@Sendable () -> Void)?
  private let state = Mutex<Result?>(nil)

  package init(
    _ purpose: Purpose, _ work: Work, delay: UInt64 = 0, source: PeerSource? = nil,
    wrong: (@Sendable () -> Void)? = nil
  ) {
    self.purpose = purpose
    self.work = work
    self.delay = delay
    self.source = source
    self.wrong = wrong
  }

  /// nil until the work is done.
  package var result: Result? { state.withLock { $0 } }

  /// Starts the work (after the delay, on `loop`'s timer) and calls `done` on `loop` once the
  /// result is in.
  package func run(on loop: any LoopExecutor, pool: JobPool, done: @escaping @Sendable () -> Void) {
    let submit: @Sendable () -> Void = { [self] in
      let busy: @Sendable () -> Void = { [self] in
        finish(.busy)
        loop.execute(done)
      }
      let accepted = pool.submit(
        from: source.map(ShareKey.address),
        { [self] in
          let result = perform()
          if result == .wrongPassword { wrong?() }
          finish(result)
          loop.execute(done)
          // A password that matched vouches for its address (`JobPool.trustAllowance`).
          return result == .verified ? .vouched : .done
        }, displaced: busy)
      if !accepted {
        finish(.busy)
        loop.execute(done)
      }
    }
    if delay == 0 {
      submit()
    } else {
      loop.executeLater(.nanoseconds(Int64(delay)), submit)
    }
  }

  private func finish(_ result: Result) {
    state.withLock { $0 = result }
  }

  private func perform() -> Result {
    switch work {
    case .verify(let hash, let password, let cost):
      let matched = PasswordHash.verify(hash ?? PasswordHash.decoy(cost), password)
      return matched && hash != nil ? .verified : .wrongPassword
    case .hash(let password, let cost):
      do {
        return .hashed(try PasswordHash.make(password, cost: cost))
      } catch {
        return .failed("\(error)")
      }
    case .verifyThenHash(let hash, let old, let new, let cost):
      guard PasswordHash.verify(hash, old) else { return .wrongPassword }
      do {
        return .hashed(try PasswordHash.make(new, cost: cost))
      } catch {
        return .failed("\(error)")
      }
    }
  }
}
