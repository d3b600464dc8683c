import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import twilio from 'twilio';
import { publicUrl } from '../../config';
import { ApiError } from '../../http/errors';
import type { TrackingDeps } from '../location/service';
import { receiveDeliveryStatus, receiveSms } from './service';

export const twilioWebhookPaths = {
  inbound: '/api/v1/sms/twilio/inbound',
  status: '/api/v1/sms/twilio/status',
} as const;

type Form = Record<string, string>;

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Twilio's webhooks (form-encoded, answered with TwiML). Registered only with SMS_PROVIDER=twilio
 * (which requires TWILIO_AUTH_TOKEN and PUBLIC_URL): every request must carry a valid `X-Twilio-Signature` over the public
 * URL and the form, otherwise 403 and nothing changes.
 */
export async function twilioWebhookRoutes(app: FastifyInstance, deps: TrackingDeps): Promise<void> {
  const authToken = deps.config.TWILIO_AUTH_TOKEN;
  if (deps.config.SMS_PROVIDER !== 'twilio' || !authToken) return;
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const verify = async (request: FastifyRequest) => {
      const form = (request.body ?? {}) as Form;
      const signature = request.headers['x-twilio-signature'];
      const url = `${publicUrl(deps.config)}${request.url}`;
      if (typeof signature !== 'string' || !twilio.validateRequest(authToken, signature, url, form))
        throw new ApiError(403, 'forbidden', 'The request is not signed by Twilio.');
      return form;
    };
    const twiml = (reply: FastifyReply, message: string | null) =>
      reply
        .type('text/xml')
        .send(
          message
            ? `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${escapeXml(message)}</Message></Response>`
            : '<?xml version="1.0" encoding="UTF-8"?><Response></Response>',
        );

    scope.post(twilioWebhookPaths.inbound, async (request, reply) => {
      const form = await verify(request);
      if (!form.From || form.Body === undefined)
        throw new ApiError(400, 'validation-failed', 'From and Body are required.');
      const answer = await receiveSms(deps, {
        from: form.From,
        body: form.Body,
        messageSid: form.MessageSid ?? null,
      });
      return twiml(reply, answer);
    });
    scope.post(twilioWebhookPaths.status, async (request, reply) => {
      const form = await verify(request);
      if (!form.MessageSid || !form.MessageStatus)
        throw new ApiError(400, 'validation-failed', 'MessageSid and MessageStatus are required.');
      await receiveDeliveryStatus(deps, {
        messageSid: form.MessageSid,
        status: form.MessageStatus,
        errorCode: form.ErrorCode ?? null,
      });
      return reply.code(204).send();
    });
  });
}
