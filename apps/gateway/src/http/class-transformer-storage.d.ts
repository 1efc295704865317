declare module 'class-transformer/cjs/storage' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
  export const defaultMetadataStorage: MetadataStorage;
}
