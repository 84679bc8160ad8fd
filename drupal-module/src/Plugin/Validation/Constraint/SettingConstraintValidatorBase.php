<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Plugin\Validation\Constraint;

use Symfony\Component\Validator\Constraint;
use Symfony\Component\Validator\ConstraintValidator;

/**
 * Adds what a setting's check finds to the context, as its constraint says.
 *
 * Each validator applies the module's own check of a setting and names its
 * problems: a message of its constraint, the placeholders, and the property
 * below the value it is about ('' for the value itself).
 *
 * @template T of \Symfony\Component\Validator\Constraint
 */
abstract class SettingConstraintValidatorBase extends ConstraintValidator {

  /**
   * {@inheritdoc}
   */
  public function validate(mixed $value, Constraint $constraint): void {
    // Only the constraint that names this validator carries its messages.
    assert($constraint->validatedBy() === static::class);
    foreach ($this->problems($value, $constraint) as [$message, $parameters, $path]) {
      $this->context->buildViolation($message, $parameters)->atPath($path)->addViolation();
    }
  }

  /**
   * The problems of a setting's value.
   *
   * @param mixed $value
   *   The value, as the config holds it.
   * @param T $constraint
   *   The constraint, whose messages the problems use.
   *
   * @return iterable<array{string, array<string, string>, string}>
   *   Each problem: its message, the message's placeholders, and the path of
   *   the property below the value it is about ('' for the value itself).
   */
  abstract protected function problems(mixed $value, Constraint $constraint): iterable;

}
