import { Injectable } from '@nestjs/common';
import { ActionRequiredView, ApmView, TokenView } from '@app/contracts';
import { ThreeDsPort } from '../threeds/threeds.port';
import { ApmPort } from './apm.port';
import { CardVaultPort } from './card-vault.port';

/*
 * The ports' answers when no 3DS, APM or vault module is bound to them: the payment keeps the status the
 * acquirer gave (pending_3ds, pending_action, approved) without the extra details. The payments module binds
 * the real implementations in their place.
 */

@Injectable()
export class NoThreeDs implements ThreeDsPort {
  begin(): Promise<ActionRequiredView | undefined> {
    return Promise.resolve(undefined);
  }
}

@Injectable()
export class NoApm implements ApmPort {
  validate(): void {}

  begin(): Promise<{ actionRequired?: ActionRequiredView; apm?: ApmView }> {
    return Promise.resolve({});
  }
}

@Injectable()
export class NoCardVault implements CardVaultPort {
  tokenize(): Promise<TokenView | undefined> {
    return Promise.resolve(undefined);
  }
}
