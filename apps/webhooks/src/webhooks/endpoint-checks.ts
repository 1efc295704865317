import { Inject, Injectable } from '@nestjs/common';
import { CallerContext } from '@app/contracts';
import { DomainError } from '@app/errors';
import { UUID } from '../events/list-query';
import { canonicalUrl, resolveTarget, TargetRefused } from './target-guard';
import { EndpointRow, Scope, WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { WEBHOOK_OPTIONS, WebhookOptions } from './webhooks.options';

export const scopeOf = (c: CallerContext): Scope => ({ merchantCode: c.merchantCode, environment: c.environment });

export const duplicateUrl = () =>
  new DomainError(
    'DUPLICATE_WEBHOOK_URL',
    'Another webhook endpoint of this merchant and environment has this url',
    'url',
  );

/** What the webhook commands and queries check first: that the endpoint is the caller's, that a url is allowed. */
@Injectable()
export class EndpointChecks {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    @Inject(WEBHOOK_OPTIONS) private readonly options: WebhookOptions,
  ) {}

  /** The caller's endpoint `id`; 404 naming `param` when there is none. */
  async existing(caller: CallerContext, id: string, param = 'id', includeDeleted = false): Promise<EndpointRow> {
    const found = UUID.test(id) ? await this.endpoints.find(scopeOf(caller), id, { includeDeleted }) : undefined;
    if (!found) throw DomainError.notFound('webhook endpoint', param);
    return found;
  }

  /** The URL in the form a request to it is sent (lower-case host, no default port), once it is allowed. */
  async allowedUrl(url: string): Promise<string> {
    try {
      await resolveTarget(url, { allowPrivate: this.options.allowPrivateTargets, requireResolution: false });
      return canonicalUrl(url);
    } catch (e) {
      if (e instanceof TargetRefused) throw DomainError.validation(e.message, 'url');
      throw e;
    }
  }
}
