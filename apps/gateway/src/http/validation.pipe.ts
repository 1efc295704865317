import { ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { ClassConstructor } from 'class-transformer';
import { validatedBody, validationFailed } from '@app/errors';
import { requestContext } from '@app/observability';
import { resolveFieldAliases } from './field-aliases';
import { unknownFieldPaths } from './ignored-fields';

/**
 * class-validator with transform and whitelist: declared aliases are renamed to their fields, unknown fields are dropped (and recorded for the
 * X-Ignored-Fields header); the first failure becomes 400 VALIDATION_FAILED naming the field. Bodies take
 * `validatedBody` (the same validation the services apply to commands); queries and params Nest's pipe.
 */
@Injectable()
export class GatewayValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: false,
      forbidUnknownValues: false,
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => validationFailed(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Other names of a field (FieldAliases) are read as the field first: they are neither ignored nor lost.
    if (metadata.type === 'body' && metadata.metatype && this.toValidate(metadata)) {
      value = resolveFieldAliases(metadata.metatype, value);
    }
    if ((metadata.type === 'body' || metadata.type === 'query') && metadata.metatype && this.toValidate(metadata)) {
      const ignored = unknownFieldPaths(metadata.metatype, value);
      const store = requestContext.getStore();
      if (ignored.length && store) (store.ignoredFields ??= []).push(...ignored);
    }
    // A JSON body is parsed by Fastify, which refuses prototype keys: the lean path of @app/errors serves it.
    if (metadata.type === 'body' && metadata.metatype && this.toValidate(metadata)) {
      return validatedBody(metadata.metatype as ClassConstructor<object>, value);
    }
    return super.transform(value, metadata);
  }
}
