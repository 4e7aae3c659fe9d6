// Email out through SMTP (nodemailer), when SMTP_URL is set: smtp://user:pass@host:587 upgrades with
// STARTTLS when the server offers it, smtps://…:465 is TLS from the start.
import nodemailer from "nodemailer";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

export function smtpMailer(url: string, from: string): Mailer {
  // One connection per digest, not a pool: digests are rare, and an idle pooled connection is
  // something the SMTP server eventually drops.
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}
