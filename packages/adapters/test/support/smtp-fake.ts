import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import PostalMime from "postal-mime"
import { SMTPServer } from "smtp-server"

/**
 * A real SMTP server (smtp-server) on 127.0.0.1 standing in for the mail
 * relay: it parses every message it receives (postal-mime) and keeps it.
 * A message counts as received when its DATA has arrived whole, before the
 * server answers it: that is the moment a real relay may already pass it on,
 * whatever becomes of the answer (a client killed while waiting for it).
 * `delayMs` holds the answer that long; `reply` may refuse a message
 * (`{ code: 550, message }`) or a recipient at RCPT TO (`refuseRecipient`).
 */
export interface ReceivedMail {
  readonly messageId: string | undefined
  /** The X-Notification-Id header. */
  readonly notificationId: string | undefined
  readonly from: string | undefined
  readonly to: ReadonlyArray<{ readonly name: string; readonly address: string | undefined }>
  readonly subject: string | undefined
  readonly text: string | undefined
  readonly html: string | undefined
  /** The top-level Content-Type header (multipart/alternative; boundary=…). */
  readonly contentType: string | undefined
  readonly user: string | undefined
  /** Set once the server has answered 250. */
  acknowledged: boolean
}

export interface SmtpRefusal {
  readonly code: number
  readonly message: string
}

export interface SmtpFakeOptions {
  /** Required credentials; unset: no login needed. */
  readonly login?: { readonly user: string; readonly pass: string }
  readonly delayMs?: number
}

export interface SmtpFake {
  readonly port: number
  readonly received: ReadonlyArray<ReceivedMail>
  /** Answer each message after this long from now on. */
  readonly setDelay: (ms: number) => void
  /** Refuse the messages `refuse` returns a refusal for (after their DATA). */
  readonly setReply: (refuse: (mail: ReceivedMail) => SmtpRefusal | undefined) => void
  /** Refuse recipients at RCPT TO. */
  readonly refuseRecipient: (refuse: (address: string) => SmtpRefusal | undefined) => void
}

const refusal = (answer: SmtpRefusal) => Object.assign(new Error(answer.message), { responseCode: answer.code })

export const smtpFake = (options: SmtpFakeOptions = {}) =>
  Effect.acquireRelease(
    Effect.async<{ server: SMTPServer; fake: SmtpFake; timers: Set<NodeJS.Timeout> }>((resume) => {
      const received: Array<ReceivedMail> = []
      const timers = new Set<NodeJS.Timeout>()
      let delayMs = options.delayMs ?? 0
      let reply: (mail: ReceivedMail) => SmtpRefusal | undefined = () => undefined
      let recipient: (address: string) => SmtpRefusal | undefined = () => undefined
      const server = new SMTPServer({
        // Plain SMTP on loopback: no STARTTLS offer (its certificate is self-signed), login allowed without TLS.
        disabledCommands: ["STARTTLS"],
        allowInsecureAuth: true,
        authOptional: options.login === undefined,
        closeTimeout: 100,
        logger: false,
        onAuth: (auth, _session, callback) => {
          const ok = options.login !== undefined && auth.username === options.login.user && auth.password === options.login.pass
          return ok ? callback(null, { user: auth.username }) : callback(refusal({ code: 535, message: "Authentication failed" }))
        },
        onRcptTo: (address, _session, callback) => {
          const refused = recipient(address.address)
          return refused === undefined ? callback() : callback(refusal(refused))
        },
        onData: (stream, session, callback) => {
          const chunks: Array<Buffer> = []
          stream.on("data", (chunk: Buffer) => chunks.push(chunk))
          stream.on("end", () => {
            PostalMime.parse(Buffer.concat(chunks)).then((email) => {
              const mail: ReceivedMail = {
                messageId: email.messageId,
                notificationId: email.headers.find((header) => header.key === "x-notification-id")?.value,
                from: email.from?.address,
                to: (email.to ?? []).map((to) => ({ name: to.name, address: to.address })),
                subject: email.subject,
                text: email.text,
                html: email.html,
                contentType: email.headers.find((header) => header.key === "content-type")?.value,
                user: typeof session.user === "string" ? session.user : undefined,
                acknowledged: false
              }
              received.push(mail)
              const answer = () => {
                const refused = reply(mail)
                if (refused !== undefined) return callback(refusal(refused))
                mail.acknowledged = true
                callback(null, `2.0.0 Ok: queued as Q${received.length}`)
              }
              if (delayMs <= 0) return answer()
              const timer = setTimeout(() => {
                timers.delete(timer)
                answer()
              }, delayMs)
              timers.add(timer)
            }, (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))))
          })
        }
      })
      // A client that dies mid-conversation (a server process killed on purpose)
      // resets its connection; smtp-server reports that as an 'error' event,
      // which would otherwise be thrown as an uncaught exception.
      server.on("error", () => undefined)
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.server.address() as AddressInfo
        resume(Effect.succeed({
          server,
          timers,
          fake: {
            port,
            received,
            setDelay: (ms) => (delayMs = ms),
            setReply: (next) => (reply = next),
            refuseRecipient: (next) => (recipient = next)
          }
        }))
      })
    }),
    ({ server, timers }) =>
      Effect.async<void>((resume) => {
        for (const timer of timers) clearTimeout(timer)
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ fake }) => fake))
