import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { EmptyAsAbsent } from './optional-text';

/**
 * What `merchantCode` means on every merchant request, and so in the API reference: the gateway resolves it
 * from the key in one place (the caller resolution), never per route.
 */
export const MERCHANT_CODE_DESCRIPTION =
  'The merchant the request acts for. Leave it out when the key belongs to one merchant: that merchant is meant. ' +
  'A key of several merchants must send it (400 `MERCHANT_CODE_REQUIRED` without it); a merchant the key does ' +
  'not belong to is 403 `MERCHANT_MISMATCH`. On a GET it goes in the query string.';

/**
 * The `merchantCode` field of a merchant request body or query: optional on every route, because a key of
 * one merchant already says which merchant it acts for. Every request class declares it with this decorator,
 * so no route can make it required (test/deploy/openapi-completeness.spec.ts checks the document).
 */
export const MerchantCodeField = (): PropertyDecorator => {
  const decorators = [
    ApiPropertyOptional({ description: MERCHANT_CODE_DESCRIPTION, example: 'acme' }),
    EmptyAsAbsent(),
    IsOptional(),
    IsString(),
  ];
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
};
