import { Cipher } from '@app/cipher';

/** The cipher of the vault's cards, nonces and 3DS-held cards (its own injection token). */
export class VaultCipher extends Cipher {}
