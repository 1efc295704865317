import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { ApiKeysService } from './api-keys.service';
import { Principal } from './principal';

/** passport-http-bearer: the key from `Authorization: Bearer …` becomes the request's principal. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly keys: ApiKeysService) {
    super();
  }

  validate(token: string): Promise<Principal> {
    return this.keys.authenticate(token);
  }
}
