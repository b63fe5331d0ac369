import type { FastifyInstance } from 'fastify';
import nodemailer from 'nodemailer';
import { AlertMonitor } from './monitor.ts';
import { AlertNotifier, type NotifierOptions } from './notifier.ts';

/**
 * Starts alerting on the OCPP central system (registered after ocppServer): alerts are raised
 * from the bus's charger events, and mailed to contact groups when SMTP_URL is set.
 */
export function alerting(app: FastifyInstance, notifierOptions: Partial<NotifierOptions> = {}): void {
  const { config } = app;
  let notifier: AlertNotifier | undefined;
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    notifier = new AlertNotifier(app.db, app.log, transport, config.smtpFrom, config.timeZone, notifierOptions);
    app.log.info({ smtp: new URL(config.smtpUrl).host }, 'alert e-mails go out through SMTP');
  } else {
    app.log.info('SMTP_URL is not set: alerts are recorded, no e-mail is sent');
  }
  const monitor = new AlertMonitor(app.db, app.log, config.alertOfflineGraceMs, (alert) => {
    notifier?.onRaised(alert).catch((err: unknown) => app.log.error({ err, alertId: alert.alertId }, 'alert notification failed'));
  });
  app.bus.on('chargerMessage', (m) => monitor.onMessage(m));
  app.bus.on('chargerPresence', (p) => monitor.onPresence(p));
  app.addHook('onReady', async () => {
    await monitor.start();
    await notifier?.start().catch((err: unknown) => app.log.error({ err }, 'unsent alert e-mails could not be read'));
  });
  app.addHook('preClose', async () => {
    await monitor.stop();
    await notifier?.stop();
  });
}
